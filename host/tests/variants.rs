//! Whole games in every variant, in console lines: a decisive game, resignation, draws by
//! agreement and by a repetition claim, a time-out, a takeback, and a restart mid-game.

mod common;

use common::{Chat, CASES, DAY, HOUR, MINUTE, SECOND};

#[tokio::test]
async fn every_variant_plays_from_a_challenge_to_a_decisive_end() {
    for case in &CASES {
        let h = Chat::new().await;
        let started = h.start(case.variant, "").await;
        assert!(started.contains("Game 1 begins: alice (White) against bob (Black)"), "{started}");
        let (last, before) = case.decisive.split_last().unwrap();
        h.play(before).await;
        let mover = if before.len() % 2 == 0 { "alice" } else { "bob" };
        if let Some(unconfirmed) = last.strip_suffix(" confirm:yes") {
            // A Grolman turn that loses on the spot is played only when confirmed.
            let asked = h.say(&format!("{mover}: /move {unconfirmed}")).await;
            let button = &asked.messages[0].buttons[0];
            assert!(
                asked.messages[0].private && button.command.to_string().ends_with("confirm:yes game:1"),
                "{asked:?}"
            );
            assert!(h.ok(&format!("{mover}: /board")).await.contains(&format!("{mover} (")), "the turn was not played");
        }
        let end = h.ok(&format!("{mover}: /move {last}")).await;
        assert!(end.contains(case.verdict), "{}: {end}", case.variant);
        assert!(end.contains("Ratings: alice 1500? → "), "{}: {end}", case.variant);
        assert!(h.err("alice: /board").await.contains("There is no game in #general"));
        let history = h.ok("alice: /history").await;
        assert!(history.contains("game 1: ") && history.contains("against bob"), "{history}");
        let pgn = h.ok("carol: /pgn game:1").await;
        assert!(pgn.contains("[White \"alice\"]") && pgn.contains("[Termination \""), "{pgn}");
        let rating = h.ok("bob: /rating").await;
        assert!(rating.contains("(1 game)"), "{rating}");
    }
}

#[tokio::test]
async fn every_variant_ends_by_a_confirmed_resignation() {
    for case in &CASES {
        let h = Chat::new().await;
        h.start(case.variant, "rated:no").await;
        h.play(&case.opening).await;
        let asked = h.say("bob: /resign").await;
        assert_eq!(asked.messages[0].buttons[0].command.to_string(), "/resign confirm:yes game:1");
        assert!(h.ok("alice: /game").await.contains("Game 1"), "asking changes nothing");
        let resigned = h.ok("bob: /resign confirm:yes game:1").await;
        assert!(resigned.contains("bob resigns. White wins by resignation (alice beats bob), 1-0"), "{resigned}");
        assert!(!resigned.contains("Ratings"), "an unrated game changes no rating");
    }
}

#[tokio::test]
async fn every_variant_draws_by_agreement() {
    for case in &CASES {
        let h = Chat::new().await;
        h.start(case.variant, "").await;
        h.play(&case.opening).await;
        let offer = h.say("alice: /draw offer").await;
        let commands: Vec<String> = offer.messages[0].buttons.iter().map(|b| b.command.to_string()).collect();
        assert_eq!(commands, ["/draw accept game:1", "/draw decline game:1"]);
        assert!(h.err("alice: /draw accept").await.contains("bob has not offered a draw"));
        let drawn = h.ok("bob: /draw accept game:1").await;
        assert!(drawn.contains("bob accepts alice's draw offer. Draw by agreement, 1/2-1/2."), "{drawn}");
    }
}

#[tokio::test]
async fn every_variant_draws_by_a_repetition_claim() {
    for case in &CASES {
        let h = Chat::new().await;
        h.start(case.variant, "").await;
        let mut moves: Vec<&str> = case.prefix.to_vec();
        moves.extend(case.cycle);
        h.play(&moves).await;
        let early = h.err("bob: /draw claim").await;
        assert!(early.contains("this position has stood 2 times (a claim needs 3)"), "{}: {early}", case.variant);
        // The prefix has an even length, so alice moves first again.
        h.play(&case.cycle).await;
        let claimed = h.ok("bob: /draw claim").await;
        assert!(claimed.contains("bob claims a draw. Draw by repetition, 1/2-1/2."), "{}: {claimed}", case.variant);
    }
}

#[tokio::test]
async fn every_variant_loses_on_time() {
    for case in &CASES {
        let h = Chat::new().await;
        h.start(case.variant, "time:1+0").await;
        h.advance(10 * SECOND);
        h.play(&case.opening[..1]).await;
        h.advance(59 * SECOND);
        assert!(h.tick().await.is_empty(), "bob still has a second");
        h.advance(SECOND);
        let announced = h.tick().await;
        assert_eq!(announced.len(), 1);
        assert_eq!(announced[0].channel.as_deref(), Some("general"));
        assert!(
            announced[0].text.contains("bob (Black) ran out of time. White wins on time (alice beats bob), 1-0."),
            "{}",
            announced[0].text
        );
        assert!(h.err("bob: /move e5").await.contains("There is no game in #general"));
        assert!(h.tick().await.is_empty(), "a game ends on time once");
    }
}

#[tokio::test]
async fn a_move_after_the_deadline_ends_the_game_on_time_instead() {
    let h = Chat::new().await;
    h.start("chess", "time:3d").await;
    h.advance(3 * DAY);
    let late = h.ok("alice: /move e4").await;
    assert!(late.contains("alice (White) ran out of time. Black wins on time"), "{late}");
    assert!(h.tick().await.is_empty());
}

#[tokio::test]
async fn every_variant_takes_back_a_move_by_agreement() {
    for case in &CASES {
        let h = Chat::new().await;
        h.start(case.variant, "").await;
        h.play(&case.opening).await;
        let asked = h.say("bob: /takeback offer").await;
        assert_eq!(asked.messages[0].buttons[0].command.to_string(), "/takeback accept game:1");
        assert!(h.err("bob: /takeback accept").await.contains("alice has not asked for a takeback"));
        let taken = h.say("alice: /takeback accept game:1").await;
        assert!(common::text(&taken).contains("1 move taken back. bob (Black) to move."), "{taken:?}");
        assert_eq!(taken.messages[0].images[0].file_name, "game-1-ply-1.png", "one ply stands");
        // bob plays again; then alice takes back her move and bob's reply at once.
        h.ok(&format!("bob: /move {}", case.opening[1])).await;
        h.ok("alice: /takeback offer").await;
        let both = h.ok("bob: /takeback accept").await;
        assert!(both.contains("2 moves taken back. alice (White) to move."), "{both}");
        assert!(h.ok("carol: /game").await.contains("No moves yet."));
        h.play(&case.opening).await;
    }
}

#[tokio::test]
async fn every_variant_goes_on_after_a_restart_and_nobody_loses_the_downtime() {
    for case in &CASES {
        let mut h = Chat::new().await;
        h.start(case.variant, "time:5+0").await;
        h.advance(20 * SECOND);
        h.play(&case.opening[..1]).await;
        h.advance(100 * SECOND);
        assert!(h.tick().await.is_empty());
        h.restart_after(HOUR).await;
        assert!(h.tick().await.is_empty(), "the hour the host was down is nobody's");
        let game = h.ok("carol: /game").await;
        assert!(game.contains("White: alice, 4:40 left"), "{game}");
        assert!(game.contains("Black: bob, 3:20 left (running)"), "{game}");
        let moved = h.ok(&format!("bob: /move {}", case.opening[1])).await;
        assert!(moved.contains("alice (White) to move"), "{moved}");
        let game = h.ok("carol: /game").await;
        assert!(game.contains("White: alice, 4:40 left (running)") && game.contains("Black: bob, 3:20 left"), "{game}");
        // Still a live clock: alice's 4:40 run out as usual.
        h.advance(4 * MINUTE + 40 * SECOND);
        assert!(h.tick().await[0].text.contains("alice (White) ran out of time"));
    }
}

#[tokio::test]
async fn a_correspondence_player_is_reminded_once_per_move() {
    let h = Chat::new().await;
    h.start("chess", "time:3d").await;
    h.advance(47 * HOUR);
    assert!(h.tick().await.is_empty(), "25 hours left: too early");
    h.advance(2 * HOUR);
    let reminded = h.tick().await;
    assert_eq!(reminded.len(), 1, "{reminded:?}");
    let reminder = &reminded[0];
    assert!(
        reminder.text.contains("Reminder: alice, it is your move in game 1 (Chess); 23h 0m left"),
        "{}",
        reminder.text
    );
    assert_eq!(reminder.mentions.iter().map(|u| u.id.as_str()).collect::<Vec<_>>(), ["alice"]);
    assert_eq!(reminder.channel.as_deref(), Some("general"));
    h.advance(HOUR);
    assert!(h.tick().await.is_empty(), "once per move");
    h.play(&["e4"]).await;
    h.advance(2 * DAY + 5 * HOUR);
    let bob = h.tick().await;
    assert!(bob.len() == 1 && bob[0].text.contains("bob, it is your move"), "{bob:?}");
}
