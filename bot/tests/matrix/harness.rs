//! The world of a Matrix test: the shared Synapse, the bot (`chimera::matrix::serve`, in this
//! process, stopped and restarted at will on the same store and database), and people, each a
//! matrix-sdk client with its own encryption store, who send messages, pills and reactions and
//! see what the bot answers by sync, exactly as a person's client would.

#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chimera::matrix::Settings;
use matrix_sdk::config::SyncSettings;
use matrix_sdk::deserialized_responses::EncryptionInfo;
use matrix_sdk::ruma::api::client::room::create_room;
use matrix_sdk::ruma::events::reaction::{OriginalSyncReactionEvent, ReactionEventContent};
use matrix_sdk::ruma::events::relation::{Annotation, Thread};
use matrix_sdk::ruma::events::room::encryption::RoomEncryptionEventContent;
use matrix_sdk::ruma::events::room::member::{MembershipState, OriginalSyncRoomMemberEvent};
use matrix_sdk::ruma::events::room::message::{
    FileMessageEventContent, MessageType, OriginalSyncRoomMessageEvent, Relation, RoomMessageEventContent,
};
use matrix_sdk::ruma::events::room::MediaSource;
use matrix_sdk::ruma::events::{InitialStateEvent, Mentions};
use matrix_sdk::ruma::{OwnedEventId, OwnedRoomId, OwnedUserId, RoomId, UserId};
use matrix_sdk::{Client, Room};
use tempfile::TempDir;
use tokio::sync::{oneshot, Notify};
use tokio::task::JoinHandle;

use crate::synapse::{synapse, Synapse};

/// How long anything the bot does may take before a test fails.
pub const PATIENCE: Duration = Duration::from_secs(60);
const PASSWORD: &str = "correct horse battery staple";

static NAMES: AtomicUsize = AtomicUsize::new(0);

/// A unique user name for this test binary's Synapse.
fn fresh(name: &str) -> String {
    format!("{name}{}", NAMES.fetch_add(1, Ordering::Relaxed))
}

/// One event a person's client received.
#[derive(Clone, Debug)]
pub struct Seen {
    pub room: OwnedRoomId,
    pub id: OwnedEventId,
    pub sender: OwnedUserId,
    pub what: What,
    /// Whether it came encrypted.
    pub encrypted: bool,
    /// When this client received it.
    pub at: std::time::Instant,
}

#[derive(Clone, Debug)]
pub enum What {
    Notice {
        body: String,
        html: Option<String>,
        mentions: Vec<OwnedUserId>,
        thread: Option<OwnedEventId>,
        reply_to: Option<OwnedEventId>,
    },
    Text {
        body: String,
    },
    Image {
        body: String,
        mimetype: Option<String>,
        width: Option<u64>,
        height: Option<u64>,
        size: Option<u64>,
        encrypted_file: bool,
        thread: Option<OwnedEventId>,
    },
    File {
        name: String,
        mimetype: Option<String>,
        size: Option<u64>,
        encrypted_file: bool,
        content: Box<FileMessageEventContent>,
    },
    Reaction {
        key: String,
        on: OwnedEventId,
    },
    Joined {
        user: OwnedUserId,
    },
    /// Left, or declined an invitation.
    Left {
        user: OwnedUserId,
    },
}

impl Seen {
    pub fn body(&self) -> &str {
        match &self.what {
            What::Notice { body, .. } | What::Text { body } | What::Image { body, .. } => body,
            What::File { name, .. } => name,
            What::Reaction { key, .. } => key,
            What::Joined { .. } | What::Left { .. } => "",
        }
    }

    pub fn is_notice(&self) -> bool {
        matches!(self.what, What::Notice { .. })
    }

    pub fn thread(&self) -> Option<&OwnedEventId> {
        match &self.what {
            What::Notice { thread, .. } | What::Image { thread, .. } => thread.as_ref(),
            _ => None,
        }
    }
}

/// Everything one client saw, in sync order.
#[derive(Default)]
struct Log {
    seen: Mutex<Vec<Seen>>,
    /// Indices already matched by an `expect`, so the same event is not matched twice.
    used: Mutex<Vec<bool>>,
    grew: Notify,
}

impl Log {
    fn push(&self, seen: Seen) {
        self.seen.lock().unwrap().push(seen);
        self.used.lock().unwrap().push(false);
        self.grew.notify_waiters();
    }
}

/// A person: a matrix-sdk client that syncs in the background and remembers what it saw.
pub struct Person {
    pub client: Client,
    pub id: OwnedUserId,
    pub name: String,
    log: Arc<Log>,
    sync: JoinHandle<()>,
    _store: TempDir,
}

impl Drop for Person {
    fn drop(&mut self) {
        self.sync.abort();
    }
}

impl Person {
    /// Registers `name` (made unique) and logs in with a fresh device and encryption store.
    pub async fn new(name: &str) -> Person {
        let synapse = synapse();
        let user = fresh(name);
        let register = {
            let user = user.clone();
            tokio::task::spawn_blocking(move || synapse.register(&user, PASSWORD))
        };
        register.await.expect("registering");
        let store = tempfile::tempdir().expect("a store");
        let client = Client::builder()
            .homeserver_url(&synapse.url)
            .sqlite_store(store.path(), None)
            .build()
            .await
            .expect("a client");
        client.matrix_auth().login_username(&user, PASSWORD).initial_device_display_name(name).await.expect("login");
        let id = client.user_id().expect("logged in").to_owned();
        let log = Arc::new(Log::default());
        let l = Arc::clone(&log);
        client.add_event_handler(
            move |event: OriginalSyncRoomMessageEvent, room: Room, encryption: Option<EncryptionInfo>| {
                let l = Arc::clone(&l);
                async move {
                    let encrypted = encryption.is_some();
                    let thread = |r: &Option<Relation<_>>| match r {
                        Some(Relation::Thread(t)) => Some(t.event_id.clone()),
                        _ => None,
                    };
                    let what = match &event.content.msgtype {
                        MessageType::Notice(n) => What::Notice {
                            body: n.body.clone(),
                            html: n.formatted.as_ref().map(|f| f.body.clone()),
                            mentions: event.content.mentions.iter().flat_map(|m| m.user_ids.iter().cloned()).collect(),
                            thread: thread(&event.content.relates_to),
                            reply_to: match &event.content.relates_to {
                                Some(Relation::Reply(r)) => Some(r.in_reply_to.event_id.clone()),
                                Some(Relation::Thread(t)) => {
                                    t.in_reply_to.as_ref().filter(|_| !t.is_falling_back).map(|r| r.event_id.clone())
                                }
                                _ => None,
                            },
                        },
                        MessageType::Text(t) => What::Text { body: t.body.clone() },
                        MessageType::Image(i) => What::Image {
                            body: i.body.clone(),
                            mimetype: i.info.as_ref().and_then(|i| i.mimetype.clone()),
                            width: i.info.as_ref().and_then(|i| i.width).map(u64::from),
                            height: i.info.as_ref().and_then(|i| i.height).map(u64::from),
                            size: i.info.as_ref().and_then(|i| i.size).map(u64::from),
                            encrypted_file: matches!(i.source, MediaSource::Encrypted(_)),
                            thread: thread(&event.content.relates_to),
                        },
                        MessageType::File(f) => What::File {
                            name: f.filename.clone().unwrap_or_else(|| f.body.clone()),
                            mimetype: f.info.as_ref().and_then(|i| i.mimetype.clone()),
                            size: f.info.as_ref().and_then(|i| i.size).map(u64::from),
                            encrypted_file: matches!(f.source, MediaSource::Encrypted(_)),
                            content: Box::new(f.clone()),
                        },
                        _ => return,
                    };
                    l.push(Seen {
                        room: room.room_id().to_owned(),
                        id: event.event_id,
                        sender: event.sender,
                        what,
                        encrypted,
                        at: std::time::Instant::now(),
                    });
                }
            },
        );
        let l = Arc::clone(&log);
        client.add_event_handler(
            move |event: OriginalSyncReactionEvent, room: Room, encryption: Option<EncryptionInfo>| {
                let l = Arc::clone(&l);
                async move {
                    let encrypted = encryption.is_some();
                    let what = What::Reaction {
                        key: event.content.relates_to.key.clone(),
                        on: event.content.relates_to.event_id.clone(),
                    };
                    l.push(Seen {
                        room: room.room_id().to_owned(),
                        id: event.event_id,
                        sender: event.sender,
                        what,
                        encrypted,
                        at: std::time::Instant::now(),
                    });
                }
            },
        );
        let l = Arc::clone(&log);
        client.add_event_handler(move |event: OriginalSyncRoomMemberEvent, room: Room| {
            let l = Arc::clone(&l);
            async move {
                let user = event.state_key.clone();
                let what = match event.content.membership {
                    MembershipState::Join => What::Joined { user },
                    MembershipState::Leave => What::Left { user },
                    _ => return,
                };
                l.push(Seen {
                    room: room.room_id().to_owned(),
                    id: event.event_id,
                    sender: event.sender,
                    what,
                    encrypted: false,
                    at: std::time::Instant::now(),
                });
            }
        });
        client.sync_once(SyncSettings::default()).await.expect("a first sync");
        let c = client.clone();
        let sync = tokio::spawn(async move {
            let _ = c.sync(SyncSettings::default().timeout(Duration::from_secs(5))).await;
        });
        Person { client, id, name: user, log, sync, _store: store }
    }

    /// Sets this person's display name, as a client's settings do.
    pub async fn set_display_name(&self, name: &str) {
        self.client.account().set_display_name(Some(name)).await.expect("a display name");
    }

    /// Creates a room (encrypted or not) and invites `people` and the bot.
    pub async fn create_room(&self, encrypted: bool, invite: &[&UserId]) -> Room {
        let mut request = create_room::v3::Request::new();
        request.invite = invite.iter().map(|u| (*u).to_owned()).collect();
        request.preset = Some(create_room::v3::RoomPreset::PrivateChat);
        if encrypted {
            request.initial_state =
                vec![InitialStateEvent::with_empty_state_key(RoomEncryptionEventContent::with_recommended_defaults())
                    .to_raw_any()];
        }
        self.client.create_room(request).await.expect("a room")
    }

    /// Joins a room once invited.
    pub async fn join(&self, room: &RoomId) -> Room {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            if let Ok(room) = self.client.join_room_by_id(room).await {
                return room;
            }
            assert!(tokio::time::Instant::now() < deadline, "{} cannot join {room}", self.name);
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    pub fn room(&self, id: &RoomId) -> Room {
        self.client.get_room(id).expect("in the room")
    }

    /// Sends plain text to the room's main timeline.
    pub async fn say(&self, room: &RoomId, text: &str) -> OwnedEventId {
        self.send(room, RoomMessageEventContent::text_plain(text)).await
    }

    /// Sends plain text in a thread.
    pub async fn say_in_thread(&self, room: &RoomId, root: &OwnedEventId, text: &str) -> OwnedEventId {
        let mut content = RoomMessageEventContent::text_plain(text);
        content.relates_to = Some(Relation::Thread(Thread::without_fallback(root.clone())));
        self.send(room, content).await
    }

    /// Sends `before`, a mention pill of `who` as clients make it (the HTML link and
    /// `m.mentions`), then `after`.
    pub async fn say_with_pill(&self, room: &RoomId, before: &str, who: &Person, after: &str) -> OwnedEventId {
        let body = format!("{before}{}{after}", who.name);
        let html = format!("{before}<a href=\"https://matrix.to/#/{}\">{}</a>{after}", who.id, who.name);
        let mut content = RoomMessageEventContent::text_html(body, html);
        content.mentions = Some(Mentions::with_user_ids([who.id.clone()]));
        self.send(room, content).await
    }

    pub async fn send(&self, room: &RoomId, content: RoomMessageEventContent) -> OwnedEventId {
        self.room(room).send(content).await.expect("sent").response.event_id
    }

    pub async fn react(&self, room: &RoomId, on: &OwnedEventId, key: &str) -> OwnedEventId {
        let content = ReactionEventContent::new(Annotation::new(on.clone(), key.to_string()));
        self.room(room).send(content).await.expect("reacted").response.event_id
    }

    /// The bytes of a file someone sent, downloaded (and decrypted) as a client does.
    pub async fn download(&self, file: &FileMessageEventContent) -> Vec<u8> {
        self.client.media().get_file(file, false).await.expect("a download").expect("a file with a source")
    }

    /// How many events this person has seen so far: a mark for [`Person::next_from`].
    pub fn mark(&self) -> usize {
        self.log.seen.lock().unwrap().len()
    }

    /// Waits for an event from `from` in `room` that `matches`, not matched before.
    pub async fn expect(&self, room: &RoomId, from: &UserId, what: &str, matches: impl Fn(&Seen) -> bool) -> Seen {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let grew = self.log.grew.notified();
            {
                let seen = self.log.seen.lock().unwrap();
                let mut used = self.log.used.lock().unwrap();
                if let Some(i) = (0..seen.len())
                    .find(|&i| !used[i] && seen[i].room == room && seen[i].sender == from && matches(&seen[i]))
                {
                    used[i] = true;
                    return seen[i].clone();
                }
            }
            if tokio::time::timeout_at(deadline, grew).await.is_err() {
                let seen = self.log.seen.lock().unwrap();
                let recent: Vec<String> = seen
                    .iter()
                    .filter(|s| s.room == room)
                    .rev()
                    .take(12)
                    .map(|s| format!("{}: {}", s.sender, s.body()))
                    .collect();
                panic!(
                    "{} waited in vain for {what}; the room's last events, newest first:\n{}\nSynapse:\n{}",
                    self.name,
                    recent.join("\n"),
                    synapse().log_tail()
                );
            }
        }
    }

    /// The first event from `from` in `room` after `mark`, waiting for one.
    pub async fn next_from(&self, room: &RoomId, from: &UserId, mark: usize) -> Seen {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let grew = self.log.grew.notified();
            {
                let seen = self.log.seen.lock().unwrap();
                if let Some(s) = seen[mark.min(seen.len())..].iter().find(|s| s.room == room && s.sender == from) {
                    return s.clone();
                }
            }
            assert!(tokio::time::timeout_at(deadline, grew).await.is_ok(), "{} saw nothing from {from}", self.name);
        }
    }

    /// Everything this person has seen so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.log.seen.lock().unwrap().clone()
    }

    /// How many events from `from` in `room` that `matches` this person has seen.
    pub fn count(&self, room: &RoomId, from: &UserId, matches: impl Fn(&Seen) -> bool) -> usize {
        self.log.seen.lock().unwrap().iter().filter(|s| s.room == room && s.sender == from && matches(s)).count()
    }

    /// Waits until `user` has joined `room`, as this person's client sees it.
    pub async fn sees_joined(&self, room: &RoomId, user: &UserId) {
        let user = user.to_owned();
        self.expect(
            room,
            &user.clone(),
            &format!("{user} to join"),
            move |s| matches!(&s.what, What::Joined { user: u } if *u == user),
        )
        .await;
    }
}

/// The bot, running in this process on its own store and database.
pub struct Bot {
    pub id: OwnedUserId,
    user: String,
    dir: TempDir,
    env: HashMap<String, String>,
    running: Option<(oneshot::Sender<()>, JoinHandle<anyhow::Result<()>>)>,
}

impl Bot {
    /// Registers a bot account and starts the bot; `env` adds or overrides settings.
    pub async fn start(env: &[(&str, &str)]) -> Bot {
        let mut bot = Bot::register().await;
        bot.env.extend(env.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        bot.resume();
        bot
    }

    /// Registers a bot account, with a store and database of its own, and starts nothing.
    pub async fn register() -> Bot {
        let synapse: &'static Synapse = synapse();
        let user = fresh("chimera");
        let u = user.clone();
        tokio::task::spawn_blocking(move || synapse.register(&u, PASSWORD)).await.expect("registering the bot");
        let id = UserId::parse(format!("@{user}:localhost")).expect("a user id");
        Bot { id, user, dir: tempfile::tempdir().expect("a directory"), env: HashMap::new(), running: None }
    }

    /// Sets (or overrides) one setting for the next start.
    pub fn set_env(&mut self, name: &str, value: &str) {
        self.env.insert(name.to_string(), value.to_string());
    }

    /// The bot's settings as environment variables.
    pub fn env_vars(&self) -> HashMap<String, String> {
        let d = self.dir.path();
        let mut env: HashMap<String, String> = HashMap::from([
            ("MATRIX_HOMESERVER".into(), synapse().url.clone()),
            ("MATRIX_USER".into(), self.id.to_string()),
            ("MATRIX_PASSWORD".into(), PASSWORD.into()),
            ("MATRIX_STORE_DIR".into(), d.join("store").display().to_string()),
            ("CHIMERA_DB".into(), d.join("chimera.db").display().to_string()),
            ("CHIMERA_BOARD_SIZE".into(), "160".into()),
            ("CHIMERA_TICK_MS".into(), "200".into()),
            ("CHIMERA_LIMIT_COMMANDS".into(), "1000".into()),
            ("CHIMERA_LIMIT_GAMES".into(), "1000".into()),
        ]);
        env.extend(self.env.clone());
        env
    }

    pub fn settings(&self) -> Settings {
        let env = self.env_vars();
        Settings::from_lookup(|name| env.get(name).cloned()).expect("the bot's settings")
    }

    /// Starts the bot (again) on the same store and database.
    pub fn resume(&mut self) {
        assert!(self.running.is_none(), "the bot runs already");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(chimera::matrix::serve(self.settings(), async move {
            let _ = stopped.await;
        }));
        self.running = Some((stop, task));
    }

    /// Stops the bot as SIGTERM does, and waits until it has finished.
    pub async fn stop(&mut self) {
        let (stop, task) = self.running.take().expect("the bot runs");
        let _ = stop.send(());
        let ended = tokio::time::timeout(PATIENCE, task).await.expect("the bot stops in time");
        ended.expect("the bot's task").expect("the bot ends cleanly");
    }

    pub fn dir(&self) -> &std::path::Path {
        self.dir.path()
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        if let Some((stop, task)) = self.running.take() {
            let _ = stop.send(());
            task.abort();
        }
    }
}

/// A room with the bot and players in it, everyone joined.
pub struct Table {
    pub room: OwnedRoomId,
}

/// `host` makes a room (encrypted or not), invites the bot and `others`; everyone joins, and
/// the host sees the bot in before anyone speaks (so encrypted messages include its device).
pub async fn table(bot: &Bot, host: &Person, others: &[&Person], encrypted: bool) -> OwnedRoomId {
    let mut invite: Vec<&UserId> = others.iter().map(|p| p.id.as_ref()).collect();
    invite.push(&bot.id);
    let room = host.create_room(encrypted, &invite).await.room_id().to_owned();
    for person in others {
        person.join(&room).await;
    }
    for person in others.iter().copied().chain([host]) {
        person.sees_joined(&room, &bot.id).await;
        for other in others {
            person.sees_joined(&room, &other.id).await;
        }
    }
    room
}
