//! Every way a command can be wrong gets a specific private error and changes nothing; and two
//! clients racing for one turn get one move played.

mod common;

use common::{text, Chat, DAY};

#[tokio::test]
async fn moves_out_of_turn_by_onlookers_and_illegal_moves_are_refused_and_change_nothing() {
    let h = Chat::new().await;
    h.start("chess", "").await;
    assert_eq!(h.err("bob: /move e5").await, "It is alice's move (White); wait for it, then move.");
    assert!(h.err("carol: /move e4").await.starts_with("Only alice and bob play in this game"));
    assert!(h.err("carol: /resign confirm:yes").await.starts_with("Only alice and bob play"));
    assert!(h.err("carol: /draw offer").await.starts_with("Only alice and bob play"));
    let illegal = h.err("alice: /move e5").await;
    assert!(illegal.starts_with("`e5`: White has no pawn that can move to e5; legal nearby: a3, a4,"), "{illegal}");
    assert!(illegal.ends_with("e3, e4, f3, f4, g3, g4, h3, h4."), "{illegal}");
    let knight = h.err("alice: /move Nd4").await;
    assert_eq!(knight, "`Nd4`: White has no knight that can move to d4; legal nearby: Na3, Nc3, Nf3, Nh3, d4.");
    assert!(h.err("alice: /move xyz").await.contains("not a move"));
    assert!(h.ok("carol: /game").await.contains("No moves yet."), "nothing was played");
    h.ok("alice: /move e4").await;
}

#[tokio::test]
async fn unknown_commands_and_malformed_lines_say_what_would_work() {
    let h = Chat::new().await;
    assert_eq!(h.err("alice: /castle").await, "unknown command `/castle`; `/help` lists them");
    assert_eq!(h.err("alice: move e4").await, "commands start with `/`, like `/help`");
    assert!(h.err("alice: /challenge @bob").await.contains("`/challenge` needs a variant"));
    assert!(h.err("alice: /challenge @bob variant:chesss").await.contains("chesss"));
    assert!(h.err("alice: /challenge @bob variant:chess time:soon").await.contains("is not a time control"));
    assert!(h.err("alice: /draw maybe").await.contains("offer, accept, decline or claim"));
    assert!(h.err("alice: /board please").await.contains("`please`: `/board` shows a picture, or with `/board text`"));
    assert!(h.err("alice: /board text please").await.contains("has no option `please`"));
    assert!(h.ok("alice: /help").await.contains("/challenge [opponent:@user] variant:<id>"));
}

#[tokio::test]
async fn commands_about_a_game_need_one_in_the_channel() {
    let h = Chat::new().await;
    let none = "There is no game in #general. Start one with `/challenge @someone variant:chess`, or see `/help`.";
    for line in [
        "alice: /move e4",
        "alice: /board",
        "alice: /moves",
        "alice: /resign",
        "alice: /draw offer",
        "alice: /takeback offer",
        "alice: /abort",
        "alice: /game",
        "alice: /pgn",
    ] {
        assert_eq!(h.err(line).await, none, "{line}");
    }
}

#[tokio::test]
async fn challenges_are_accepted_declined_withdrawn_and_expire() {
    let h = Chat::new().await;
    assert!(h.err("alice: /challenge @alice variant:chess").await.starts_with("You cannot challenge yourself"));
    h.ok("alice: /challenge @bob variant:golem").await;
    assert!(h.err("alice: /accept").await.starts_with("You cannot accept your own challenge"));
    assert!(h.err("carol: /accept").await.starts_with("That challenge is for bob, not for you."));
    let declined = h.ok("bob: /decline").await;
    assert!(declined.contains("bob declines alice's challenge"), "{declined}");
    assert!(h.err("bob: /accept").await.starts_with("There is no challenge to accept"));

    h.ok("alice: /challenge variant:werewolf").await;
    assert!(h.ok("alice: /decline challenge:2").await.contains("alice withdraws their challenge"));
    h.ok("alice: /challenge variant:werewolf time:7d rated:no").await;
    let open = h.ok("carol: /accept").await;
    assert!(open.contains("Werewolf Chess, 7 days per move, unrated"), "anyone may accept an open challenge: {open}");

    h.ok("dave@lobby: /challenge @erin variant:chess").await;
    h.advance(DAY);
    let expired = h.tick().await;
    assert_eq!(expired.len(), 1);
    assert_eq!(expired[0].channel.as_deref(), Some("lobby"));
    assert!(expired[0].text.contains("dave's challenge 4 to erin (Chess) expired unanswered."), "{}", expired[0].text);
    assert!(h.err("erin@lobby: /accept challenge:4").await.contains("no longer open"));
}

#[tokio::test]
async fn a_busy_channel_gets_the_new_game_a_place_of_its_own() {
    let h = Chat::new().await;
    h.start("chess", "").await;
    let challenged = h.ok("carol: /challenge @dave variant:ghost-king color:black").await;
    assert!(challenged.contains("the new game will get a place of its own"), "{challenged}");
    let reply = h.say("dave: /accept").await;
    assert_eq!(reply.messages.len(), 2);
    assert!(reply.messages[0].text.contains("dave and carol play game 2 in #general-2"), "{}", text(&reply));
    assert_eq!(reply.messages[1].channel.as_deref(), Some("general-2"));
    assert!(reply.messages[1].text.contains("Game 2 begins: dave (White) against carol (Black), Ghost King Chess"));
    h.ok("dave@general-2: /move e4").await;
    assert!(h.err("carol: /move e5").await.starts_with("Only alice and bob play"), "#general keeps its own game");
    h.ok("carol@general-2: /move e5").await;
    h.ok("alice: /move d4").await;
}

#[tokio::test]
async fn a_button_for_a_game_that_is_over_changes_nothing() {
    let h = Chat::new().await;
    h.start("chess", "").await;
    h.play(&["e4", "e5"]).await;
    h.ok("alice: /draw offer").await;
    h.ok("alice: /resign confirm:yes").await;
    h.start("chess", "").await;
    assert_eq!(h.err("bob: /draw accept game:1").await, "Game 1 is over; this channel's game now is game 2.");
    assert_eq!(h.err("bob: /resign confirm:yes game:1").await, "Game 1 is over; this channel's game now is game 2.");
    h.ok("bob: /resign confirm:yes game:2").await;
    assert_eq!(h.err("alice: /move e4 game:2").await, "Game 2 is over; there is no game in #general now.");
}

#[tokio::test]
async fn a_game_is_aborted_only_before_both_have_moved() {
    let h = Chat::new().await;
    h.start("unicorn-great", "").await;
    h.play(&["e3e5"]).await;
    assert!(h.ok("bob: /abort").await.contains("bob aborts game 1; it counts for nothing."));
    h.start("unicorn-great", "").await;
    h.play(&["e3e5", "e8e6"]).await;
    assert!(h.err("alice: /abort").await.starts_with("Both players have moved"));
}

#[tokio::test]
async fn a_grolman_lead_move_with_a_choice_of_chains_offers_each_turn() {
    let h = Chat::new().await;
    h.start("grolman", "").await;
    h.play(&["Nc3", "a5"]).await;
    let asked = h.say("alice: /move e3").await;
    let message = &asked.messages[0];
    assert!(message.private && message.text.contains("`e3` can be played more than one way"));
    let labels: Vec<&str> = message.buttons.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(labels, ["e3 (Nge2, Rg1)", "e3 (Nce2, c3, Qc2, Kd1)"]);
    let second = message.buttons[1].command.to_string();
    assert_eq!(second, "/move e2e3 (c3e2 c2c3 d1c2 e1d1) game:1");
    let played = h.ok(&format!("alice: {second}")).await;
    assert!(played.contains("alice (White) played 2. e3 (Nce2, c3, Qc2, Kd1)."), "{played}");
}

#[tokio::test]
async fn the_legal_moves_are_listed_and_marked() {
    let h = Chat::new().await;
    h.start("werewolf", "").await;
    let reply = h.say("carol: /moves d1").await;
    let message = &reply.messages[0];
    assert!(message.text.starts_with("The werewolf on d1 can play"), "{}", message.text);
    let board = message.images[0].board.as_ref().unwrap();
    assert!(!board.marks.is_empty());
    assert!(h.err("carol: /moves e7").await.starts_with("The pawn on e7 is Black's, and it is White's move."));
    assert!(h.err("carol: /moves e4").await.starts_with("e4 is empty. Pieces that can move:"));
}

#[tokio::test]
async fn the_rules_come_with_their_diagrams() {
    let h = Chat::new().await;
    let reply = h.say("anyone: /rules golem").await;
    assert!(reply.messages[0].text.contains("Golem Chess"));
    assert_eq!(reply.messages[0].images.len(), 2);
    assert!(reply.messages[0].images.iter().all(|i| i.bytes.starts_with(b"\x89PNG")));
    assert!(h.ok("anyone: /rules").await.contains("`unicorn-great`: Unicorn Great Chess"));
}

#[tokio::test]
async fn ratings_and_the_leaderboard_follow_rated_games() {
    let h = Chat::new().await;
    assert!(h.err("alice: /rating").await.contains("alice has not played on Chimera yet."));
    for _ in 0..2 {
        h.start("chess", "").await;
        h.play(&["f3", "e5", "g4", "Qh4#"]).await;
    }
    let board = h.ok("anyone: /leaderboard chess").await;
    let lines: Vec<&str> = board.lines().collect();
    assert!(lines[1].starts_with("1. bob 1") && lines[1].ends_with("(2 games)"), "{board}");
    assert!(lines[2].starts_with("2. alice 1"), "{board}");
    assert!(h.ok("anyone: /leaderboard golem").await.contains("Nobody has played a rated game of Golem Chess"));
    assert!(h.ok("anyone: /rating @bob chess").await.starts_with("bob: Chess 1"));
}

#[tokio::test]
async fn two_clients_racing_for_one_turn_get_one_move_played() {
    let h = Chat::new().await;
    h.start("chess", "").await;
    let (first, second) = tokio::join!(h.say("alice: /move e4"), h.say("alice: /move d4"));
    let replies = [&first, &second];
    let played: Vec<_> = replies.iter().filter(|r| !r.messages[0].private).collect();
    assert_eq!(played.len(), 1, "exactly one move is played: {replies:?}");
    let refused = &replies.iter().find(|r| r.messages[0].private).unwrap().messages[0];
    // Which refusal depends on when the second read the game: before the first move was stored
    // (its ply is stale) or after (it is no longer alice's move). Both change nothing.
    if refused.text.starts_with("The position moved on before your move arrived") {
        assert_eq!(refused.images.len(), 1, "the board as it now stands comes along");
    } else {
        assert!(refused.text.starts_with("It is bob's move (Black)"), "{}", refused.text);
    }
    let game = h.ok("carol: /game").await;
    assert!(game.contains("Moves: 1. e4\n") || game.contains("Moves: 1. d4\n"), "{game}");
}
