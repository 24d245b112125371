//! A tournament whose games cannot be opened when its round is paired (the chat network
//! refuses a thread): the start still stands, and the scheduler opens the games and announces
//! the round once places can be had.

mod common;

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;

use async_trait::async_trait;
use host::{Host, ManualClock, PlaceError, Places, Reply, Request, Settings, User};

#[derive(Default)]
struct FlakyPlaces {
    down: AtomicBool,
    opened: AtomicU32,
}

#[async_trait]
impl Places for FlakyPlaces {
    async fn open_place(&self, parent: &str, _title: &str) -> Result<String, PlaceError> {
        if self.down.load(Ordering::SeqCst) {
            return Err("threads are unavailable".into());
        }
        Ok(format!("{parent}-t{}", self.opened.fetch_add(1, Ordering::SeqCst) + 1))
    }
    /// Announcements are what the host's `tick` returns; this network takes them all.
    async fn post(&self, _: &host::Message) -> Result<(), PlaceError> {
        Ok(())
    }
}

async fn say(host: &Host, places: &FlakyPlaces, n: &mut u32, user: &str, line: &str) -> Reply {
    *n += 1;
    let request = Request {
        platform: "test".into(),
        server: Some("guild".into()),
        channel: "events".into(),
        user: User { id: user.into(), name: user.into() },
        manager: false,
        request_id: format!("r{n}"),
        command: chimera::console::read_command(line).unwrap(),
    };
    let reply = host.handle(request, places).await;
    assert!(!reply.is_error(), "{line}: {}", common::text(&reply));
    reply
}

#[tokio::test]
async fn games_that_could_not_open_are_opened_by_the_scheduler() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = Settings::new(dir.path().join("chimera.db"), "test");
    settings.clock = Arc::new(ManualClock::new(common::T0));
    settings.board_size = 240;
    let host = Host::open(settings).await.unwrap();
    let places = FlakyPlaces::default();
    let n = &mut 0;
    say(&host, &places, n, "org", "/tournament create name:Flaky variant:chess format:knockout").await;
    for p in ["a", "b", "c", "d"] {
        say(&host, &places, n, p, "/tournament join").await;
    }
    places.down.store(true, Ordering::SeqCst);
    let started = say(&host, &places, n, "org", "/tournament start").await;
    assert_eq!(started.messages.len(), 1, "begun, but no game could open: {:?}", started.messages);
    assert!(host.tick(&places).await.is_empty(), "still no place");
    places.down.store(false, Ordering::SeqCst);
    let opened = host.tick(&places).await;
    let threads: Vec<&str> = opened.iter().filter_map(|m| m.channel.as_deref()).filter(|c| c.contains("-t")).collect();
    assert_eq!(threads, ["events-t1", "events-t2"]);
    let announcement = opened.iter().find(|m| m.text.contains(": round 1 of 2.")).expect("the round is announced");
    assert!(announcement.text.contains("in #events-t1") && announcement.text.contains("in #events-t2"));
    assert!(host.tick(&places).await.is_empty(), "opened once");
}
