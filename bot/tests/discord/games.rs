//! Two users play a whole game of every variant by slash commands and buttons.

use serde_json::json;

use crate::harness::{assert_board, assert_board_and_replay, World};

/// A short decisive game per variant, White first; `confirm` marks a Grolman turn that loses.
const GAMES: [(&str, &[&str], &str); 6] = [
    ("chess", &["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"], "White wins by checkmate (alice beats bob), 1-0"),
    ("golem", &["e3", "f5", "Be2", "g5", "Bh5#"], "White wins by checkmate (alice beats bob), 1-0"),
    (
        "grolman",
        &["f2f3 (e1f2 d1e1)", "c7c5 (d8c7 e8d8)", "f2g3 (e1f2) confirm"],
        "Black wins as the loser's turn left their own king attacked (bob beats alice), 0-1",
    ),
    ("ghost-king", &["Ke6", "dxe6"], "Black wins by capturing the Ghost King (bob beats alice), 0-1"),
    ("werewolf", &["f2f3", "d8d6", "h2h3", "d6g3"], "Black wins by checkmate (bob beats alice), 0-1"),
    ("unicorn-great", &["f2g3", "e10b4", "e1f2", "b4d2"], "Black wins by checkmate (bob beats alice), 0-1"),
];

#[tokio::test]
async fn every_variant_is_played_to_its_end() {
    let world = World::new().await;
    for (variant, moves, verdict) in GAMES {
        let table = world.fake.add_channel(world.guild, variant);
        let start = world.start_game(table, variant).await;
        assert!(start.content.contains("alice (White) against bob (Black)"), "{variant}: {}", start.content);
        assert!(start.content.contains(&format!("<@{}>", world.alice.get())), "{variant}: players are pinged");
        assert_board(&start);
        let mut last = None;
        for (i, text) in moves.iter().enumerate() {
            let user = if i % 2 == 0 { world.alice } else { world.bob };
            let (text, confirm) = match text.strip_suffix(" confirm") {
                Some(text) => (text, true),
                None => (*text, false),
            };
            if confirm {
                // A Grolman turn that loses on the spot is asked about first, privately.
                let asked = world.slash(user, table, "move", json!({ "move": text })).await.message;
                assert!(asked.is_ephemeral() && asked.content.contains("Play it anyway?"), "{}", asked.content);
            }
            let args = if confirm { json!({ "move": text, "confirm": true }) } else { json!({ "move": text }) };
            let answer = world.slash(user, table, "move", args).await.message;
            assert!(!answer.is_ephemeral(), "{variant} {text}: {}", answer.content);
            if i + 1 == moves.len() {
                assert_board_and_replay(&answer, moves.len() + 1);
            } else {
                assert_board(&answer);
            }
            last = Some(answer);
        }
        let end = last.expect("a move").content;
        assert!(end.contains(verdict), "{variant}: {end}");
        let over = world.slash(world.alice, table, "board", json!({})).await.message;
        assert!(over.is_ephemeral() && over.content.contains("There is no game in"), "{}", over.content);
    }
}

#[tokio::test]
async fn a_game_shows_its_moves_and_pgn() {
    let world = World::new().await;
    world.start_game(world.lobby, "chess").await;
    world.play(world.lobby, &["e4", "e5", "Nf3"]).await;
    let game = world.slash(world.carol, world.lobby, "game", json!({})).await.message;
    assert!(game.content.contains("1. e4 e5 2. Nf3"), "{}", game.content);
    let pgn = world.slash(world.carol, world.lobby, "pgn", json!({})).await.message;
    assert!(pgn.content.contains("[Variant \"") || pgn.content.contains("[White \"alice\"]"), "{}", pgn.content);
    let moves = world.slash(world.bob, world.lobby, "moves", json!({ "square": "g8" })).await.message;
    assert!(moves.content.contains("Nf6") && moves.content.contains("Nh6"), "{}", moves.content);
    assert_board(&moves);
}

/// With `CHIMERA_WEB_URL` set, a game's messages carry a "Watch" link button to its page, named
/// by the game's own web key; without it, none.
#[tokio::test]
async fn a_move_carries_a_watch_link_to_its_game_page() {
    let world = World::with(&[("CHIMERA_WEB_URL", "https://chess.example.org/chimera/")]).await;
    let start = world.start_game(world.lobby, "chess").await;
    let moved = world.play(world.lobby, &["e4"]).await.remove(0).message;
    let store = data::Store::open(world.db()).unwrap();
    let key = store.read(|tx| Ok(tx.game(1)?.web_key)).unwrap();
    let watch = vec![("Watch".to_string(), format!("https://chess.example.org/chimera/g/{key}"))];
    assert_eq!(moved.links(), watch, "{:?}", moved.components);
    assert_eq!(start.links(), watch, "the game's first message too");
    // A link button opens the page and runs no command: it has no custom id.
    assert!(moved.components().iter().all(|c| c.url.is_none() || c.custom_id.is_none()), "{:?}", moved.components);
    assert_board(&moved);

    let plain = World::new().await;
    plain.start_game(plain.lobby, "chess").await;
    let moved = plain.play(plain.lobby, &["e4"]).await.remove(0).message;
    assert!(moved.links().is_empty(), "no address, no link: {:?}", moved.components);
}
