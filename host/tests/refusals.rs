//! A network that refuses (a bot kicked, or without "Create Public Threads"): the host backs
//! off exponentially, then gives the work up: a tournament is paused and its organiser told,
//! a channel's announcements are dropped. Ten minutes of ticks cost a handful of requests, not
//! one a second (Discord blocks a bot's address after 10,000 invalid requests in ten minutes).
//! A network that fails for a while (a 503) costs nothing: the start of a tournament whose
//! games could not open stands, and the scheduler opens them once places can be had.

mod common;

use common::{Answer, Club, Place, MINUTE, SECOND};

/// A knockout of two in `events`, started by `org`, whose game cannot be opened.
async fn refused_tournament(club: &Club) {
    club.ok("org", "events", "/tournament create name:Cup variant:chess format:knockout").await;
    for p in ["ann", "bo"] {
        club.ok(p, "events", "/tournament join").await;
    }
    club.rooms.opens(Answer::Refuses);
    let started = club.ok("org", "events", "/tournament start").await;
    assert!(started.contains("begins"), "the start stands: {started}");
}

#[tokio::test]
async fn a_tournament_whose_games_are_refused_backs_off_and_is_paused() {
    let club = Club::open().await;
    refused_tournament(&club).await;
    for _ in 0..600 {
        club.pass(SECOND).await;
    }
    let attempts = club.rooms.open_attempts();
    assert!((2..=20).contains(&attempts), "{attempts} places asked for in ten minutes of refusals");
    let told: Vec<String> =
        club.rooms.posted().into_iter().filter(|m| m.text.contains("is paused")).map(|m| m.text).collect();
    assert_eq!(told.len(), 1, "the organiser is told once: {told:?}");
    assert!(told[0].contains("/tournament start"), "{}", told[0]);
    let paused = club.rooms.posted().into_iter().find(|m| m.text.contains("is paused")).unwrap();
    assert_eq!(paused.channel.as_deref(), Some("events"));
    assert!(paused.mentions.iter().any(|u| u.id == "org"), "the organiser is called");

    // Paused: nothing more is asked of the network, however long.
    for _ in 0..60 {
        club.pass(MINUTE).await;
    }
    assert_eq!(club.rooms.open_attempts(), attempts, "a paused tournament asks for nothing");

    // Only the organiser (or a manager) resumes it; then its game opens.
    club.rooms.opens(Answer::Takes);
    club.refused("ann", "events", "/tournament start").await;
    let resumed = club.ok("org", "events", "/tournament start").await;
    assert!(resumed.contains("resumes"), "{resumed}");
    assert_eq!(club.rooms.opened().len(), 1, "the missing game opened: {:?}", club.rooms.opened());
}

#[tokio::test]
async fn a_refusal_that_ends_is_forgotten() {
    let club = Club::open().await;
    refused_tournament(&club).await;
    for _ in 0..30 {
        club.pass(SECOND).await;
    }
    let before = club.rooms.open_attempts();
    assert!(before < 10, "backing off: {before} attempts in 30 s");
    club.rooms.opens(Answer::Takes);
    for _ in 0..120 {
        club.pass(SECOND).await;
    }
    assert_eq!(club.rooms.opened().len(), 1, "opened once the network allows it, unpaused");
    assert!(club.rooms.posted().iter().all(|m| !m.text.contains("is paused")));
}

#[tokio::test]
async fn a_channel_that_refuses_announcements_is_given_up_in_bounded_requests() {
    let club = Club::open().await;
    // Eight challenges in one channel, all expiring at once: eight announcements for it.
    for i in 0..8 {
        club.ok(&format!("p{i}"), "general", &format!("/challenge @q{i} variant:chess")).await;
    }
    club.rooms.posts(Answer::Refuses);
    club.pass(24 * 60 * MINUTE + SECOND).await;
    for _ in 0..600 {
        club.pass(SECOND).await;
    }
    let attempts = club.rooms.post_attempts();
    assert!((1..=20).contains(&attempts), "{attempts} posts tried in ten minutes of refusals");
    // Given up: what was queued for the channel is dropped, not tried again.
    for _ in 0..30 {
        club.pass(MINUTE).await;
    }
    let later = club.rooms.post_attempts();
    assert!(later - attempts <= 1, "{} more attempts after giving up", later - attempts);
    // Another channel is not held back by it.
    club.rooms.posts(Answer::Takes);
    club.ok("ann", "elsewhere", "/challenge @bo variant:chess").await;
    club.pass(24 * 60 * MINUTE + SECOND).await;
    let posted = club.rooms.posted();
    assert!(posted.iter().any(|m| m.channel.as_deref() == Some("elsewhere")), "{posted:?}");
}

#[tokio::test]
async fn losing_a_server_pauses_its_tournaments_and_stops_its_games_and_challenges() {
    let club = Club::open().await;
    let lobby = Place::new("console", Some("guild"), "lobby");
    let other = Place::new("console", Some("other"), "hall");
    for (user, line) in [
        ("org", "/tournament create name:Cup variant:chess format:knockout"),
        ("ann", "/tournament join"),
        ("bo", "/tournament join"),
        ("cy", "/challenge @dee variant:chess"),
        ("ed", "/challenge @fay variant:chess color:white rated:no"),
    ] {
        let reply = club.at(&lobby, user, line).await;
        assert!(!reply.is_error(), "{line}: {}", common::text(&reply));
    }
    let game = club.at(&Place::new("console", Some("guild"), "lobby"), "fay", "/accept").await;
    assert!(!game.is_error(), "{}", common::text(&game));
    let kept = club.at(&other, "gus", "/challenge @hal variant:chess").await;
    assert!(!kept.is_error());
    club.rooms.add_channel("guild", "puzzles");
    club.rooms.add_channel("other", "quiz");
    for (place, line) in
        [(&lobby, "/settings daily-puzzle:#puzzles time:18:00"), (&other, "/settings daily-puzzle:#quiz time:18:00")]
    {
        let reply = club.as_manager(place, "org", line).await;
        assert!(!reply.is_error(), "{line}: {}", common::text(&reply));
    }

    let lost = club.host.server_lost("guild").await.unwrap();
    assert_eq!(
        lost,
        host::Lost { tournaments_paused: 1, challenges_withdrawn: 1, games_aborted: 1, daily_puzzle_stopped: true },
        "the tournament paused, cy's challenge withdrawn, ed and fay's game stopped, the daily puzzle stopped"
    );
    let shown = common::text(&club.at(&lobby, "dee", "/settings").await);
    assert!(shown.contains("daily puzzle: off"), "{shown}");
    let shown = common::text(&club.at(&other, "dee", "/settings").await);
    assert!(shown.contains("daily puzzle: in #quiz"), "the other server keeps its own: {shown}");
    let refused = club.at(&lobby, "dee", "/accept").await;
    assert!(refused.is_error(), "the challenge is gone: {}", common::text(&refused));
    let game = club.at(&lobby, "ed", "/board").await;
    assert!(game.is_error(), "no game on in the lost server: {}", common::text(&game));
    // Elsewhere nothing changed.
    let accepted = club.at(&other, "hal", "/accept").await;
    assert!(!accepted.is_error(), "{}", common::text(&accepted));
    // Invited back, the organiser resumes (here: starts) it.
    let started = club.at(&lobby, "org", "/tournament start").await;
    assert!(!started.is_error() && common::text(&started).contains("begins"), "{}", common::text(&started));
}

#[tokio::test]
async fn games_that_could_not_open_are_opened_by_the_scheduler() {
    let club = Club::open_with(|s| {
        s.platform = "test".into();
        s.board_size = 240;
    })
    .await;
    let events = Place::new("test", Some("guild"), "events");
    let say = |user: &'static str, line: &'static str| {
        let (club, events) = (&club, &events);
        async move {
            let reply = club.at(events, user, line).await;
            assert!(!reply.is_error(), "{line}: {}", common::text(&reply));
            reply
        }
    };
    say("org", "/tournament create name:Flaky variant:chess format:knockout").await;
    for p in ["a", "b", "c", "d"] {
        say(p, "/tournament join").await;
    }
    club.rooms.opens(Answer::Fails(usize::MAX));
    let started = say("org", "/tournament start").await;
    assert_eq!(started.messages.len(), 1, "begun, but no game could open: {:?}", started.messages);
    assert!(club.pass(0).await.is_empty(), "still no place");
    club.rooms.opens(Answer::Takes);
    let opened = club.pass(0).await;
    let threads: Vec<&str> = opened.iter().filter_map(|m| m.channel.as_deref()).filter(|c| *c != "events").collect();
    assert_eq!(threads, ["events-2", "events-3"]);
    let announcement = opened.iter().find(|m| m.text.contains(": round 1 of 2.")).expect("the round is announced");
    assert!(announcement.text.contains("in #events-2") && announcement.text.contains("in #events-3"));
    assert!(club.pass(0).await.is_empty(), "opened once");
}
