//! The host's own test harness: a host on a fresh SQLite database with a manual clock, people
//! named by their names, and places kept in memory.
//!
//! A test says what a person types, where: `club.say("alice", "general", "/move e4")`. Each
//! line is read by the host's own command reader, as the console reads it, and `@name` mentions
//! become the person `name`. [`Club::at`] says it on another platform or server, for the rules
//! that depend on where something is said. Places ([`Rooms`]) open numbered channels under
//! their parent and keep every announcement posted, so a test can read what the host said
//! unasked; [`Rooms::refuse`] makes the network refuse to open places, and
//! [`Rooms::refuse_posts`] to post in them, as a bot that lost its permissions sees (a 403).

#![allow(dead_code)] // each test binary uses part of it

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use host::{
    Command, Host, ManualClock, Mention, Message, PlaceError, Places, Progress, Reply, Request, Settings, User,
};

/// A moment to start the manual clock at (November 2023).
pub const T0: i64 = 1_700_000_000_000;
pub const SECOND: i64 = 1_000;
pub const MINUTE: i64 = 60 * SECOND;

/// Where something is said: the platform, the server (a Discord guild; `None` for a direct chat
/// or the console) and the channel.
#[derive(Clone, Debug)]
pub struct Place {
    pub platform: String,
    pub server: Option<String>,
    pub channel: String,
}

impl Place {
    /// A console channel: no server.
    pub fn console(channel: &str) -> Place {
        Place { platform: "console".into(), server: None, channel: channel.into() }
    }

    pub fn new(platform: &str, server: Option<&str>, channel: &str) -> Place {
        Place { platform: platform.into(), server: server.map(Into::into), channel: channel.into() }
    }
}

/// The person called `name`: their id is their name, as on the console.
pub fn person(name: &str) -> User {
    User { id: name.into(), name: name.into() }
}

/// A host with its clock, its places and its database folder.
pub struct Club {
    pub host: Host,
    pub clock: ManualClock,
    pub rooms: Rooms,
    pub dir: tempfile::TempDir,
    requests: AtomicU32,
}

impl Club {
    /// A console host with room for fast players (no command limit to speak of) and one engine
    /// thread.
    pub async fn open() -> Club {
        Club::open_with(|_| {}).await
    }

    /// A console host with its settings changed by `adjust` first.
    pub async fn open_with(adjust: impl FnOnce(&mut Settings)) -> Club {
        let dir = tempfile::tempdir().unwrap();
        let clock = ManualClock::new(T0);
        let mut settings = Settings::new(dir.path().join("chimera.db"), "console");
        settings.clock = Arc::new(clock.clone());
        settings.engine_threads = 1;
        settings.limits.commands = 10_000;
        adjust(&mut settings);
        let host = Host::open(settings).await.unwrap();
        Club { host, clock, rooms: Rooms::default(), dir, requests: AtomicU32::new(0) }
    }

    /// The host again on the same database, as after a restart, with the clock where it is.
    pub async fn restart(self) -> Club {
        let Club { host, clock, rooms, dir, requests } = self;
        let settings = host.settings().clone();
        drop(host);
        let host = Host::open(settings).await.unwrap();
        Club { host, clock, rooms, dir, requests }
    }

    /// `user` types `line` in the console channel `channel`.
    pub async fn say(&self, user: &str, channel: &str, line: &str) -> Reply {
        self.at(&Place::console(channel), user, line).await
    }

    /// `user` types `line` at `place`.
    pub async fn at(&self, place: &Place, user: &str, line: &str) -> Reply {
        self.request(place, person(user), false, line).await
    }

    /// `user`, a manager of the place's server, types `line` at `place`.
    pub async fn as_manager(&self, place: &Place, user: &str, line: &str) -> Reply {
        self.request(place, person(user), true, line).await
    }

    async fn request(&self, place: &Place, user: User, manager: bool, line: &str) -> Reply {
        let n = self.requests.fetch_add(1, Ordering::Relaxed) + 1;
        let command: Command = line
            .parse::<Command<Mention>>()
            .unwrap_or_else(|e| panic!("{line}: {e}"))
            .try_map_users(|m| Ok::<_, ()>(person(m.0.trim_start_matches('@'))))
            .unwrap();
        let request = Request {
            platform: place.platform.clone(),
            server: place.server.clone(),
            channel: place.channel.clone(),
            user,
            manager,
            request_id: format!("request-{n}"),
            command,
        };
        self.host.handle(request, &self.rooms).await
    }

    /// Like [`Club::say`], and the reply must not be a refusal: returns its text.
    pub async fn ok(&self, user: &str, channel: &str, line: &str) -> String {
        let reply = self.say(user, channel, line).await;
        assert!(!reply.is_error(), "{user}: {line} was refused: {}", text(&reply));
        text(&reply)
    }

    /// Like [`Club::say`], and the reply must be a refusal: returns its text.
    pub async fn refused(&self, user: &str, channel: &str, line: &str) -> String {
        let reply = self.say(user, channel, line).await;
        assert!(reply.is_error(), "{user}: {line} was not refused: {}", text(&reply));
        text(&reply)
    }

    /// Lets `ms` pass on the clock, then runs the scheduler's step once: returns what it
    /// announced.
    pub async fn pass(&self, ms: i64) -> Vec<Message> {
        self.clock.advance(ms);
        self.host.tick(&self.rooms).await
    }

    /// A game of `variant` in `channel` between `white` and `black`, started by a challenge and
    /// its acceptance (unrated, the default time control unless `terms` adds options such as
    /// `time:5+3`).
    pub async fn game(&self, channel: &str, white: &str, black: &str, variant: &str, terms: &str) {
        self.ok(white, channel, &format!("/challenge @{black} variant:{variant} color:white rated:no {terms}")).await;
        self.ok(black, channel, "/accept").await;
    }

    /// Plays `moves` in `channel` by turns, the first by `first` (each `confirm:yes`, so the
    /// host plays even moves that it would ask about).
    pub async fn moves(&self, channel: &str, first: &str, second: &str, moves: &[&str]) {
        for (i, m) in moves.iter().enumerate() {
            let who = if i % 2 == 0 { first } else { second };
            self.ok(who, channel, &format!("/move {m} confirm:yes")).await;
        }
    }
}

/// The text of every message of a reply, a line between messages.
pub fn text(reply: &Reply) -> String {
    reply.messages.iter().map(|m| m.text.as_str()).collect::<Vec<_>>().join("\n")
}

/// Places in memory: each opened place is `parent-N`, counting up from 2 as the console does,
/// and every post is kept.
#[derive(Default, Clone)]
pub struct Rooms {
    inner: Arc<RoomsInner>,
}

#[derive(Default)]
struct RoomsInner {
    opened: Mutex<Vec<(String, String)>>,
    posted: Mutex<Vec<Message>>,
    progress: Mutex<Vec<Progress>>,
    refusing: AtomicBool,
    open_attempts: AtomicU32,
    refusing_posts: AtomicBool,
    post_attempts: AtomicU32,
}

impl Rooms {
    /// From now on, opening a place fails (`true`) or works again (`false`).
    pub fn refuse(&self, refusing: bool) {
        self.inner.refusing.store(refusing, Ordering::SeqCst);
    }

    /// From now on, posting an announcement is refused (`true`: 403, as in a channel the bot
    /// may no longer write in) or works again (`false`).
    pub fn refuse_posts(&self, refusing: bool) {
        self.inner.refusing_posts.store(refusing, Ordering::SeqCst);
    }

    /// How many times the host tried to post an announcement, refused or not.
    pub fn post_attempts(&self) -> u32 {
        self.inner.post_attempts.load(Ordering::SeqCst)
    }

    /// How many times the host asked for a place, refused or not.
    pub fn open_attempts(&self) -> u32 {
        self.inner.open_attempts.load(Ordering::SeqCst)
    }

    /// The places opened so far: (their id, their title).
    pub fn opened(&self) -> Vec<(String, String)> {
        self.inner.opened.lock().unwrap().clone()
    }

    /// Every announcement posted so far, oldest first.
    pub fn posted(&self) -> Vec<Message> {
        self.inner.posted.lock().unwrap().clone()
    }

    /// Forgets the announcements posted so far and returns them.
    pub fn take_posted(&self) -> Vec<Message> {
        std::mem::take(&mut *self.inner.posted.lock().unwrap())
    }

    /// Every progress report shown so far.
    pub fn progress(&self) -> Vec<Progress> {
        self.inner.progress.lock().unwrap().clone()
    }
}

#[async_trait::async_trait]
impl Places for Rooms {
    async fn open_place(&self, parent_channel: &str, title: &str) -> Result<String, PlaceError> {
        self.inner.open_attempts.fetch_add(1, Ordering::SeqCst);
        if self.inner.refusing.load(Ordering::SeqCst) {
            return Err(PlaceError::refused("403 Forbidden: Missing Permissions"));
        }
        let mut opened = self.inner.opened.lock().unwrap();
        let id = format!("{parent_channel}-{}", opened.len() + 2);
        opened.push((id.clone(), title.to_string()));
        Ok(id)
    }

    async fn post(&self, message: &Message) -> Result<(), PlaceError> {
        self.inner.post_attempts.fetch_add(1, Ordering::SeqCst);
        if self.inner.refusing_posts.load(Ordering::SeqCst) {
            return Err(PlaceError::refused("403 Forbidden: Missing Access"));
        }
        self.inner.posted.lock().unwrap().push(message.clone());
        Ok(())
    }

    fn progress(&self, progress: Progress) {
        self.inner.progress.lock().unwrap().push(progress);
    }
}
