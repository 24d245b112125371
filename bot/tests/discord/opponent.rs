//! Playing Chimera itself on Discord: `/play`, and a challenge to the bot by mention. The
//! player's move is answered at once; Chimera's move follows as a message of its own, with the
//! board, calling the player.

use serde_json::json;

use crate::harness::{assert_board, World};

#[tokio::test]
async fn play_starts_a_game_and_chimera_answers_each_move_in_the_channel() {
    let world = World::new().await;
    let args = json!({
        "variant": world.choice("play", "variant", "Chess"),
        "level": 1,
        "color": world.choice("play", "color", "White"),
        "time": "10+5",
    });
    let started = world.slash(world.alice, world.lobby, "play", args).await.message;
    assert!(started.content.contains("alice (White) against Chimera (level 1) (Black)"), "{}", started.content);
    assert_board(&started);

    let moved = world.slash(world.alice, world.lobby, "move", json!({ "move": "e4" })).await.message;
    assert!(moved.content.starts_with("alice (White) played 1. e4."), "{}", moved.content);
    let answer = world
        .fake
        .wait_message(world.lobby, |m| m.content.starts_with("Chimera (level 1) (Black) played 1..."))
        .await
        .expect("Chimera answers");
    assert_board(&answer);
    assert!(answer.content.contains(&format!("<@{}>", world.alice)), "alice is called: {}", answer.content);
    assert_eq!(answer.author, world.fake.bot_id());

    let next = world.slash(world.alice, world.lobby, "move", json!({ "move": "d4" })).await.message;
    assert!(next.content.starts_with("alice (White) played 2. d4."), "{}", next.content);
    world
        .fake
        .wait_message(world.lobby, |m| m.content.starts_with("Chimera (level 1) (Black) played 2..."))
        .await
        .expect("Chimera answers again");
}

#[tokio::test]
async fn a_challenge_to_the_bot_is_a_game_against_chimera() {
    let world = World::new().await;
    let args = json!({
        "variant": world.choice("challenge", "variant", "Golem Chess"),
        "opponent": world.fake.bot_id().get().to_string(),
        "color": world.choice("challenge", "color", "Black"),
    });
    let started = world.slash(world.alice, world.lobby, "challenge", args).await.message;
    assert!(started.content.contains("Chimera (level 4) (White) against alice (Black)"), "{}", started.content);
    let first = world
        .fake
        .wait_message(world.lobby, |m| m.content.starts_with("Chimera (level 4) (White) played 1."))
        .await
        .expect("Chimera opens");
    assert_board(&first);
}

#[tokio::test]
async fn a_finished_game_is_analysed_with_its_graph() {
    // Deferred at once, as a long analysis is: the placeholder is filled in when it is done.
    let world = World::with(&[("CHIMERA_DEFER_MS", "0")]).await;
    world.start_game(world.lobby, "chess").await;
    world.play(world.lobby, &["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"]).await;
    let mated = world.slash(world.alice, world.lobby, "move", json!({ "move": "Qxf7#" })).await.message;
    assert!(mated.content.contains("1-0"), "{}", mated.content);
    // Progress fills the deferred answer first ("Analysing game 1… 0%"), edited as the engine
    // goes; the analysis then replaces it.
    let first = world.slash(world.bob, world.lobby, "analyse", json!({ "game": 1 })).await.message;
    assert!(first.content.starts_with("Analysing game 1… "), "{}", first.content);
    let analysis = world
        .fake
        .wait_message(world.lobby, |m| m.id == first.id && m.content.contains("Analysis of game 1"))
        .await
        .expect("the analysis replaces its progress");
    let revisions = world.fake.revisions(first.id);
    let (placeholder, shown) = revisions.split_first().expect("the deferral's placeholder");
    let (last, progress) = shown.split_last().expect("the analysis");
    assert!(placeholder.is_empty() && last == &analysis.content, "{revisions:?}");
    let percents: Vec<u32> = progress
        .iter()
        .map(|p| match p.strip_prefix("Analysing game 1… ").and_then(|p| p.strip_suffix('%')) {
            Some(percent) => percent.parse().expect("a percent"),
            None => {
                assert_eq!(p, "Analysed game 1.", "{revisions:?}");
                100
            }
        })
        .collect();
    assert!(!percents.is_empty() && percents.windows(2).all(|w| w[0] < w[1]), "{revisions:?}");
    assert!(analysis.content.contains("3... Nf6?? blunder (better: "), "the missed defence: {}", analysis.content);
    let graph = &analysis.attachments[0];
    assert!(graph.filename.ends_with("analysis.png") && graph.bytes.starts_with(b"\x89PNG"), "{}", graph.filename);
}
