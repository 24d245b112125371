//! Limits against abuse, each refused with a clear message that changes nothing: open
//! challenges, games in progress, commands per ten seconds, and tournament size.

mod common;

use common::{Chat, SECOND};

#[tokio::test]
async fn open_challenges_are_limited_per_player() {
    let h = Chat::with_settings(|s| s.limits.open_challenges = 2).await;
    h.ok("alice: /challenge @bob variant:chess").await;
    h.ok("alice@other: /challenge @carol variant:golem").await;
    let refused = h.err("alice@third: /challenge @dave variant:werewolf").await;
    assert_eq!(
        refused,
        "You have 2 challenges open, as many as one player may: wait for answers, or `/decline` one of them first."
    );
    assert!(h.err("dave@third: /accept").await.contains("There is no challenge to accept"), "nothing was made");
    // Someone else is not limited by alice's challenges; and a withdrawn one frees a place.
    h.ok("bob@third: /challenge @dave variant:chess").await;
    h.ok("alice: /decline").await;
    h.ok("alice@fourth: /challenge @dave variant:werewolf").await;
}

#[tokio::test]
async fn games_in_progress_are_limited_per_player() {
    let h = Chat::with_settings(|s| s.limits.games = 1).await;
    h.start("chess", "").await;
    let refused = h.err("alice@two: /challenge @carol variant:chess").await;
    assert_eq!(refused, "You are playing 1 game, as many as one player may at once: finish one first.");
    h.ok("carol@two: /challenge variant:chess").await;
    let refused = h.err("bob@two: /accept").await;
    assert_eq!(refused, "You are playing 1 game, as many as one player may at once: finish one first.");
    // A challenge made before its maker got busy cannot start a game beyond their limit.
    h.ok("erin@four: /challenge variant:chess").await;
    h.ok("frank@five: /challenge @erin variant:chess").await;
    h.ok("erin@five: /accept").await;
    let refused = h.err("gina@four: /accept").await;
    assert_eq!(refused, "erin is playing 1 game, as many as one player may at once: finish one first.");
    // Once the game is over, both may play again.
    h.ok("alice: /resign confirm:yes").await;
    assert!(h.ok("bob@two: /accept").await.contains("Game 3 begins"));
}

#[tokio::test]
async fn commands_are_limited_per_player_per_ten_seconds_and_others_are_not_slowed() {
    let h = Chat::with_settings(|s| s.limits.commands = 3).await;
    for _ in 0..3 {
        h.ok("alice: /help").await;
    }
    let refused = h.err("alice: /help").await;
    assert_eq!(
        refused,
        "You are sending commands faster than Chimera takes them: at most 3 every 10 seconds. Wait a few seconds, then try again."
    );
    h.ok("bob: /help").await;
    h.advance(10 * SECOND);
    h.ok("alice: /help").await;
}

#[tokio::test]
async fn a_flood_is_refused_once_a_window_and_slows_only_the_flooder() {
    let h = Chat::with_settings(|s| s.limits.commands = 3).await;
    for _ in 0..3 {
        h.ok("alice: /help").await;
    }
    // The first refusal is said; the rest of the flood is refused as quietly as a chat adapter
    // can (Matrix leaves a quiet reply unsaid), not answered once per message.
    let first = h.say("alice: /board").await;
    assert!(first.is_error() && !first.quiet, "{first:?}");
    for i in 0..50 {
        let again = h.say("alice: /board").await;
        assert!(again.is_error() && again.quiet, "flood message {i}: {again:?}");
        if i % 20 == 0 {
            // Meanwhile everyone else is answered at once (within their own rate).
            h.ok("bob: /help").await;
        }
    }
    // A window after the refusal that was said, alice is admitted again; a new flood is told
    // once again.
    h.advance(10 * SECOND);
    for _ in 0..3 {
        h.ok("alice: /help").await;
    }
    let told = h.say("alice: /help").await;
    assert!(told.is_error() && !told.quiet, "{told:?}");
    assert!(h.say("alice: /help").await.quiet);
}

#[tokio::test]
async fn tournaments_take_a_limited_number_of_players() {
    let h = Chat::with_settings(|s| s.limits.tournament_size = 2).await;
    h.ok("admin: /tournament create name:Small variant:chess format:knockout").await;
    h.ok("alice: /tournament join").await;
    h.ok("bob: /tournament join").await;
    let refused = h.err("carol: /tournament join").await;
    assert_eq!(refused, "Tournament 1 \"Small\" is full: it takes 2 players at most.");
    assert!(h.ok("admin: /tournament list").await.contains("2 players"));
}
