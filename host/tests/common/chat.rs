//! A host driven by lines as the console reads them: `alice: /move e4` in the channel
//! `general`, `alice@general-2: /move e4` in another. This is how the console's users and
//! scripts speak to Chimera, so the host's behaviour can be written down as a session.
//!
//! As on the console: a user's id is their name, `admin` manages the server, a reply carries
//! the announcements its command caused (a tournament's next round), and every text is shown
//! as typed, without the marks around what users typed (`host::typed::plain`).

use host::{Host, Message, Reply, Settings};

use super::{person, shown, Club, Place};

/// The channel a line without `@channel` is said in.
pub const GENERAL: &str = "general";

pub struct Chat {
    /// `None` only while the host restarts.
    club: Option<Club>,
}

impl Chat {
    pub async fn new() -> Chat {
        Chat::with_settings(|_| {}).await
    }

    /// A chat whose host has the test's settings changed by `tweak`.
    pub async fn with_settings(tweak: impl FnOnce(&mut Settings)) -> Chat {
        let club = Club::open_with(|settings| {
            settings.board_size = 320;
            tweak(settings);
        })
        .await;
        Chat { club: Some(club) }
    }

    pub fn club(&self) -> &Club {
        self.club.as_ref().expect("the host is running")
    }

    pub fn host(&self) -> &Host {
        &self.club().host
    }

    /// Stops the host, lets `down` pass, and starts it again on the same database.
    pub async fn restart_after(&mut self, down: i64) {
        let club = self.club.take().expect("the host is running");
        club.clock.advance(down);
        self.club = Some(club.restart().await);
    }

    pub fn advance(&self, ms: i64) {
        self.club().clock.advance(ms);
    }

    /// The scheduler's step: the announcements it posted.
    pub async fn tick(&self) -> Vec<Message> {
        let club = self.club();
        club.host.tick(&club.rooms).await;
        shown(club.rooms.fresh())
    }

    /// Runs a line: `alice: /move e4` or `alice@general-2: /move e4`.
    pub async fn say(&self, line: &str) -> Reply {
        let (who, said) = line.split_once(':').unwrap_or_else(|| panic!("who says `{line}`?"));
        let (user, channel) = who.trim().split_once('@').unwrap_or((who.trim(), GENERAL));
        let club = self.club();
        let place = Place::console(channel.trim_start_matches('#'));
        let mut reply = club.request(&place, person(user), user == "admin", said.trim()).await;
        reply.messages.extend(club.rooms.fresh());
        reply.messages = shown(reply.messages);
        reply
    }

    /// Runs a line that must succeed; returns all its text.
    pub async fn ok(&self, line: &str) -> String {
        let reply = self.say(line).await;
        assert!(!reply.is_error(), "`{line}` failed: {}", super::text(&reply));
        super::text(&reply)
    }

    /// Runs a line that must be refused; returns the refusal.
    pub async fn err(&self, line: &str) -> String {
        let reply = self.say(line).await;
        assert!(reply.is_error(), "`{line}` should have failed, but said: {}", super::text(&reply));
        super::text(&reply)
    }

    /// Challenges bob for alice (White) in `variant` with extra options, and accepts.
    pub async fn start(&self, variant: &str, options: &str) -> String {
        self.ok(&format!("alice: /challenge @bob variant:{variant} color:white {options}")).await;
        self.ok("bob: /accept").await
    }

    /// Plays moves in turn, alice (White) first; returns what the last one said.
    pub async fn play(&self, moves: &[&str]) -> String {
        let mut last = String::new();
        for (i, m) in moves.iter().enumerate() {
            let who = if i % 2 == 0 { "alice" } else { "bob" };
            last = self.ok(&format!("{who}: /move {m}")).await;
        }
        last
    }
}
