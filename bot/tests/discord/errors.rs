//! What goes wrong reaches only the one who did it, and changes nothing.

use serde_json::json;

use crate::harness::World;

#[tokio::test]
async fn an_illegal_move_is_told_privately_and_changes_nothing() {
    let world = World::new().await;
    world.start_game(world.lobby, "chess").await;
    let refused = world.slash(world.alice, world.lobby, "move", json!({ "move": "e5" })).await.message;
    assert!(refused.is_ephemeral(), "{}", refused.content);
    assert!(
        refused.content.contains("e5") && refused.content.contains("e4"),
        "why, and what is near: {}",
        refused.content
    );
    assert!(refused.attachments.is_empty());
    let board = world.slash(world.carol, world.lobby, "board", json!({})).await.message;
    assert!(board.content.contains("alice (White) to move"), "{}", board.content);
    let game = world.slash(world.carol, world.lobby, "game", json!({})).await.message;
    assert!(!game.content.contains("1. "), "no move was recorded: {}", game.content);
    let played = world.slash(world.alice, world.lobby, "move", json!({ "move": "e4" })).await.message;
    assert!(!played.is_ephemeral(), "{}", played.content);
}

#[tokio::test]
async fn only_the_players_move_and_only_in_turn() {
    let world = World::new().await;
    world.start_game(world.lobby, "werewolf").await;
    let carol = world.slash(world.carol, world.lobby, "move", json!({ "move": "e2e4" })).await.message;
    assert!(carol.is_ephemeral() && carol.content.contains("Only alice and bob play"), "{}", carol.content);
    let early = world.slash(world.bob, world.lobby, "move", json!({ "move": "e7e5" })).await.message;
    assert!(early.is_ephemeral() && early.content.contains("alice"), "{}", early.content);
    let resign = world.slash(world.carol, world.lobby, "resign", json!({})).await.message;
    assert!(resign.is_ephemeral(), "{}", resign.content);
    let game = world.slash(world.carol, world.lobby, "game", json!({})).await.message;
    assert!(!game.content.contains("1. "), "nothing was played: {}", game.content);
}

#[tokio::test]
async fn autocomplete_offers_the_legal_moves_that_match() {
    let world = World::new().await;
    world.start_game(world.lobby, "chess").await;
    let typed = |user, text: &str| {
        world.fake.autocomplete(user, world.lobby, "move", json!({ "move": text }), "move").expect("an interaction")
    };
    let knights: Vec<String> = typed(world.alice, "n").choices().await.unwrap().into_iter().map(value).collect();
    assert_eq!(knights, ["Na3", "Nc3", "Nf3", "Nh3"]);
    let by_square: Vec<String> = typed(world.alice, "e2").choices().await.unwrap().into_iter().map(value).collect();
    assert_eq!(by_square, ["e3", "e4"]);
    let everything = typed(world.alice, "").choices().await.unwrap();
    assert_eq!(everything.len(), 20, "the twenty first moves");
    let watcher = typed(world.carol, "e").choices().await.unwrap();
    assert_eq!(watcher.len(), 1);
    assert!(watcher[0].name.contains("not playing"), "{}", watcher[0].name);
    // The fake refuses a callback after Discord's three seconds, so an answer of the right type
    // is one in time; how fast it comes is the load benchmark's business.
    let (callback, _) = typed(world.alice, "").callback().await.unwrap();
    assert_eq!(callback, fakecord::CallbackType::AutocompleteResult);

    // 10x10 has more first moves than Discord shows: at most 25.
    let wide = world.fake.add_channel(world.guild, "wide");
    world.start_game(wide, "unicorn-great").await;
    let many = world.fake.autocomplete(world.alice, wide, "move", json!({ "move": "" }), "move").unwrap();
    assert_eq!(many.choices().await.unwrap().len(), 25);
}

fn value(choice: fakecord::Choice) -> String {
    choice.value.as_str().unwrap_or_default().to_string()
}

#[tokio::test]
async fn unknown_values_are_refused_with_a_reason() {
    let world = World::new().await;
    let variant = world.choice("challenge", "variant", "Chess");
    let args = json!({ "variant": variant, "opponent": world.bob.get().to_string(), "time": "forever" });
    let refused = world.slash(world.alice, world.lobby, "challenge", args).await.message;
    assert!(refused.is_ephemeral() && refused.content.contains("forever"), "{}", refused.content);
    let none = world.slash(world.alice, world.lobby, "accept", json!({})).await.message;
    assert!(none.is_ephemeral(), "{}", none.content);
}

#[tokio::test]
async fn an_option_typed_into_the_move_field_is_move_text() {
    let world = World::new().await;
    world.start_game(world.lobby, "grolman").await;
    world.play(world.lobby, &["f2f3 (e1f2 d1e1)", "c7c5 (d8c7 e8d8)"]).await;
    // This turn leaves White's king attacked, which loses at once: it needs `confirm`. Typed
    // inside the move field, `confirm:yes` is part of the move's text, and no move reads so.
    let typed = json!({ "move": "f2g3 (e1f2) confirm:yes" });
    let refused = world.slash(world.alice, world.lobby, "move", typed).await.message;
    assert!(refused.is_ephemeral(), "{}", refused.content);
    assert!(refused.content.contains("confirm:yes"), "the whole text was read as the move: {}", refused.content);
    let game = world.slash(world.carol, world.lobby, "game", json!({})).await.message;
    assert!(
        game.content.ends_with("Moves: 1. f3 (Kf2, Qe1) c5 (Qc7, Kd8)\nalice (White) to move."),
        "nothing was played: {}",
        game.content
    );
    // The option itself confirms.
    let confirmed = json!({ "move": "f2g3 (e1f2)", "confirm": true });
    let lost = world.slash(world.alice, world.lobby, "move", confirmed).await.message;
    assert!(lost.content.contains("Black wins"), "{}", lost.content);
}
