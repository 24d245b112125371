//! Puzzles on Discord: the bot's own puzzle job finds one in a finished game of the server,
//! `/puzzle` serves it with its board, and `/move` answers it. (Commands are registered in the
//! test guild only; that a puzzle stays in its place is `host/tests/puzzles.rs`'s.)

use std::time::Duration;

use serde_json::json;

use crate::harness::{assert_board, World};

/// Scholar's mate: 3...Nf6?? lets 4. Qxf7#.
const SCHOLARS_MATE: [&str; 7] = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"];

/// Waits until the bot's puzzle job has scanned `games` games (it runs on its own, as beside
/// any server): the puzzles of those games are then stored.
async fn scanned(world: &World, games: i64) {
    let store = data::Store::open(world.db()).unwrap();
    let waited = tokio::time::timeout(Duration::from_secs(120), async {
        loop {
            let totals = store.read(|tx| tx.scan_totals()).unwrap();
            if totals.iter().map(|t| t.games).sum::<i64>() >= games {
                return totals;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    });
    let totals = waited.await.expect("the puzzle job scans the finished game");
    assert!(totals.iter().any(|t| t.variant == "chess" && t.puzzles >= 1), "{totals:?}");
}

#[tokio::test]
async fn the_puzzle_job_finds_a_puzzle_that_slash_puzzle_serves_and_move_solves() {
    let world = World::with(&[("CHIMERA_PUZZLE_CPU", "100")]).await;
    let table = world.fake.add_channel(world.guild, "scholar");
    world.start_game(table, "chess").await;
    world.play(table, &SCHOLARS_MATE).await;
    scanned(&world, 1).await;

    // In another channel of the same server, for a player of neither side.
    let chess = world.choice("puzzle", "variant", "Chess");
    let shown = world.slash(world.carol, world.lobby, "puzzle", json!({ "variant": chess })).await.message;
    assert!(!shown.is_ephemeral(), "{}", shown.content);
    assert!(shown.content.contains("White to move: find the winning move."), "{}", shown.content);
    assert_board(&shown);
    let solved = world.slash(world.carol, world.lobby, "move", json!({ "move": "Qxf7#" })).await.message;
    assert!(!solved.is_ephemeral(), "{}", solved.content);
    assert!(solved.content.contains("Solved: Qxf7#!"), "{}", solved.content);
    assert!(solved.content.contains("Your Chess puzzle rating: 1500? →"), "{}", solved.content);
    // Solved, the attempt is closed: the same move again is no answer.
    let again = world.slash(world.carol, world.lobby, "move", json!({ "move": "Qxf7#" })).await.message;
    assert!(again.is_ephemeral() && again.content.contains("There is no game in"), "{}", again.content);
}
