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

/// The current minute of the day, UTC, as `time:` takes it.
fn this_minute() -> data::TimeOfDay {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
    data::TimeOfDay::of(now.as_millis() as i64)
}

#[tokio::test]
async fn a_manager_sets_the_daily_puzzle_with_the_channel_option_and_it_is_posted_there() {
    let world = World::with(&[("CHIMERA_PUZZLE_CPU", "100")]).await;
    let table = world.fake.add_channel(world.guild, "scholar");
    let daily = world.fake.add_channel(world.guild, "daily");
    let elsewhere = world.fake.add_channel(world.fake.add_guild("Elsewhere"), "general");
    world.start_game(table, "chess").await;
    world.play(table, &SCHOLARS_MATE).await;
    scanned(&world, 1).await;

    let set = |user, channel: fakecord::ChannelId, time: String| {
        let world = &world;
        async move {
            let args = json!({ "daily-puzzle": channel.get().to_string(), "time": time });
            world.slash(user, world.lobby, "settings", args).await.message
        }
    };
    // Only a manager; and only a channel of this server.
    let refused = set(world.bob, daily, "18:00".into()).await;
    assert!(refused.is_ephemeral() && refused.content.contains("Only a manager"), "{}", refused.content);
    world.fake.grant_manage_server(world.alice);
    let refused = set(world.alice, elsewhere, "18:00".into()).await;
    assert!(
        refused.is_ephemeral() && refused.content.contains("is not a channel of this server"),
        "{}",
        refused.content
    );
    let refused = set(world.alice, daily, "6pm".into()).await;
    assert!(refused.is_ephemeral() && refused.content.contains("is not a time of day"), "{}", refused.content);

    // Set for this very minute (UTC), so that it is posted now: again if the minute turned
    // while the command was on its way, as the host would then post it tomorrow.
    loop {
        let minute = this_minute();
        let said = set(world.alice, daily, minute.to_string()).await;
        assert!(!said.is_ephemeral(), "{}", said.content);
        assert!(said.content.contains(&format!("posted in <#{daily}> every day at {minute} UTC")), "{}", said.content);
        if this_minute() == minute {
            break;
        }
    }
    let post = world.fake.wait_message(daily, |m| m.content.contains("Daily puzzle")).await.expect("the daily post");
    assert!(post.content.contains("White to move: find the winning move. Answer with `/move`"), "{}", post.content);
    assert_board(&post);
    let shown = world.slash(world.bob, world.lobby, "settings", json!({})).await.message;
    assert!(shown.content.contains(&format!("daily puzzle: in <#{daily}> every day at")), "{}", shown.content);

    // Answered in its channel by someone who did not play the game.
    let solved = world.slash(world.carol, daily, "move", json!({ "move": "Qxf7#" })).await.message;
    assert!(!solved.is_ephemeral() && solved.content.contains("Solved: Qxf7#!"), "{}", solved.content);
    let again = world.slash(world.carol, daily, "move", json!({ "move": "Qxf7#" })).await.message;
    assert!(
        again.is_ephemeral() && again.content.contains("the daily puzzle here, and solved it"),
        "{}",
        again.content
    );

    let off = world.choice("settings", "daily-puzzle-off", "off");
    let stopped = world.slash(world.alice, world.lobby, "settings", json!({ "daily-puzzle-off": off })).await.message;
    assert!(stopped.content.contains("stops this server's daily puzzle"), "{}", stopped.content);
    assert_eq!(world.fake.messages_in(daily).iter().filter(|m| m.content.contains("Daily puzzle")).count(), 1);
}
