//! The host's own test harness: a host on a fresh SQLite database with a manual clock, people
//! named by their names, and places kept in memory.
//!
//! A test says what a person types, where: `club.say("alice", "general", "/move e4")`. Each
//! line is read by the host's own command reader, as the console reads it, and `@name` mentions
//! become the person `name`; a line the reader refuses is answered as the console answers it, a
//! private error in the reader's words. [`Club::at`] says it on another platform or server, for the rules
//! that depend on where something is said. [`chat::Chat`] takes whole console lines
//! (`alice: /move e4`) instead, for tests written as a session.
//!
//! Places ([`rooms::Rooms`]) open numbered channels under their parent and keep every
//! announcement posted, so a test can read what the host said unasked; the test chooses how the
//! network answers ([`rooms::Answer`]: a 403, a 503 for a while, no answer at all).
//! [`event`] drives and checks whole tournaments; [`cases`] holds a short game of each variant.

#![allow(dead_code, unused_imports)] // each test binary uses part of it

pub mod cases;
pub mod chat;
pub mod event;
pub mod rooms;

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use host::{Command, Host, ManualClock, Mention, Message, PlaceKind, Places, Reply, Request, Settings, User};

pub use cases::{Case, CASES};
pub use chat::Chat;
pub use rooms::{Answer, Rooms};

/// A moment to start the manual clock at (November 2023).
pub const T0: i64 = 1_700_000_000_000;
pub const SECOND: i64 = 1_000;
pub const MINUTE: i64 = 60 * SECOND;
pub const HOUR: i64 = 60 * MINUTE;
pub const DAY: i64 = 24 * HOUR;

/// Where something is said: the platform, the server (a Discord guild; `None` for a direct chat
/// or the console), the channel, and who can read it.
#[derive(Clone, Debug)]
pub struct Place {
    pub platform: String,
    pub server: Option<String>,
    pub channel: String,
    pub kind: PlaceKind,
}

impl Place {
    /// A console channel: no server.
    pub fn console(channel: &str) -> Place {
        Place { platform: "console".into(), server: None, channel: channel.into(), kind: PlaceKind::Direct }
    }

    /// A server's channel (shared), or without a server a direct chat.
    pub fn new(platform: &str, server: Option<&str>, channel: &str) -> Place {
        let kind = PlaceKind::of_server(server);
        Place { platform: platform.into(), server: server.map(Into::into), channel: channel.into(), kind }
    }

    /// The same place, of another kind (a Matrix room that is a direct chat, or encrypted).
    pub fn of_kind(self, kind: PlaceKind) -> Place {
        Place { kind, ..self }
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
        Club::open_in(tempfile::tempdir().unwrap(), adjust).await
    }

    /// A console host on a database that `seed` wrote first, as earlier hosts would have left it
    /// (a game long under way), with its settings changed by `adjust`.
    pub async fn open_seeded(
        seed: impl Fn(&data::WriteTx<'_>) -> data::Result<()>,
        adjust: impl FnOnce(&mut Settings),
    ) -> Club {
        let dir = tempfile::tempdir().unwrap();
        data::Store::open(dir.path().join("chimera.db")).unwrap().write(seed).unwrap();
        Club::open_in(dir, adjust).await
    }

    async fn open_in(dir: tempfile::TempDir, adjust: impl FnOnce(&mut Settings)) -> Club {
        let clock = ManualClock::new(T0);
        let mut settings = Settings::new(dir.path().join("chimera.db"), "console");
        settings.clock = Arc::new(clock.clone());
        settings.engine_threads = 1;
        settings.limits.commands = 10_000;
        adjust(&mut settings);
        let host = Host::open(settings).await.unwrap();
        Club { host, clock, rooms: Rooms::default(), dir, requests: AtomicU32::new(0) }
    }

    /// `user`'s puzzle rating in chess on the console, if they have one.
    pub async fn puzzle_rating(&self, user: &'static str) -> Option<data::PuzzleRating> {
        self.host
            .store()
            .read(move |tx| match tx.find_player("console", user)? {
                Some(player) => tx.puzzle_rating(player.id, "chess"),
                None => Ok(None),
            })
            .await
            .unwrap()
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

    /// `user` types `line` in the console channel `channel`, and the host answers through
    /// `rooms` rather than the club's own (to see one person's progress reports).
    pub async fn through(&self, rooms: &Rooms, user: &str, channel: &str, line: &str) -> Reply {
        self.request_through(rooms, &Place::console(channel), person(user), false, line).await
    }

    async fn request(&self, place: &Place, user: User, manager: bool, line: &str) -> Reply {
        self.request_through(&self.rooms, place, user, manager, line).await
    }

    async fn request_through(
        &self,
        places: &dyn Places,
        place: &Place,
        user: User,
        manager: bool,
        line: &str,
    ) -> Reply {
        let n = self.requests.fetch_add(1, Ordering::Relaxed) + 1;
        let command: Command = match line.parse::<Command<Mention>>() {
            Ok(typed) => typed.try_map_users(|m| Ok::<_, ()>(person(m.0.trim_start_matches('@')))).unwrap(),
            // As the console answers it: the reader's words, privately, and nothing done.
            Err(e) => return Reply::error(e.to_string()),
        };
        let request = Request {
            platform: place.platform.clone(),
            server: place.server.clone(),
            channel: place.channel.clone(),
            user,
            manager,
            place: place.kind,
            request_id: format!("request-{n}"),
            command,
        };
        self.host.handle(request, places).await
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

/// The text of every message of a reply, a line between messages, as typed (without the marks
/// around what users typed: see `host::typed`).
pub fn text(reply: &Reply) -> String {
    reply.messages.iter().map(|m| host::typed::plain(&m.text)).collect::<Vec<_>>().join("\n")
}

/// Messages as a person reads them: what users typed, unmarked (`host::typed::plain`).
pub fn shown(mut messages: Vec<Message>) -> Vec<Message> {
    for message in &mut messages {
        message.text = host::typed::plain(&message.text);
    }
    messages
}
