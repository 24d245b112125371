//! A tournament run by the bot on Discord: sign-up by slash commands, each game in its own
//! thread with both players pinged, round announcements, and the final standings as a table and a
//! picture in the tournament's channel.

use std::collections::HashMap;

use fakecord::{ChannelId, Message, UserId};
use serde_json::json;

use crate::harness::{assert_board, World};

/// The players by name, and who plays White in a game's opening message.
fn white_and_black(opening: &Message, names: &HashMap<String, UserId>) -> (UserId, UserId) {
    let before = |marker: &str| {
        let at = opening.content.find(marker).unwrap_or_else(|| panic!("no {marker} in {}", opening.content));
        let name = opening.content[..at].rsplit([' ', ':']).next().unwrap_or_default().to_string();
        *names.get(&name).unwrap_or_else(|| panic!("{name:?} is not a player: {}", opening.content))
    };
    (before(" (White)"), before(" (Black)"))
}

/// Plays a four-move mate in `thread`, which Black wins.
async fn fools_mate(world: &World, thread: ChannelId, white: UserId, black: UserId) -> Message {
    let mut last = None;
    for (i, mv) in ["f3", "e5", "g4", "Qh4#"].iter().enumerate() {
        let user = if i % 2 == 0 { white } else { black };
        let answer = world.slash(user, thread, "move", json!({ "move": mv })).await.message;
        assert!(!answer.is_ephemeral(), "{mv}: {}", answer.content);
        last = Some(answer);
    }
    last.expect("four moves")
}

#[tokio::test]
async fn a_knockout_runs_from_sign_up_to_standings() {
    let world = World::new().await;
    let dave = world.fake.add_user("dave");
    let names: HashMap<String, UserId> =
        [("alice", world.alice), ("bob", world.bob), ("carol", world.carol), ("dave", dave)]
            .into_iter()
            .map(|(n, id)| (n.to_string(), id))
            .collect();
    let args = json!({
        "name": "Club Cup",
        "variant": world.choice("tournament create", "variant", "Chess"),
        "format": world.choice("tournament create", "format", "Knockout"),
    });
    let created = world.slash(world.alice, world.lobby, "tournament create", args).await.message;
    assert!(!created.is_ephemeral() && created.content.contains("Club Cup"), "{}", created.content);
    for player in [world.alice, world.bob, world.carol, dave] {
        let joined = world.slash(player, world.lobby, "tournament join", json!({})).await.message;
        assert!(!joined.is_ephemeral(), "{}", joined.content);
    }
    let refused = world.slash(world.bob, world.lobby, "tournament start", json!({})).await.message;
    assert!(refused.is_ephemeral(), "only the organiser or a manager starts it: {}", refused.content);
    let started = world.slash(world.alice, world.lobby, "tournament start", json!({})).await.message;
    assert!(started.content.contains("\"Club Cup\" begins: knockout, 2 rounds"), "{}", started.content);

    // Round 1: two games, each in its own thread, announced in the lobby.
    let announced = world.fake.wait_message(world.lobby, |m| m.content.contains("round 1 of 2")).await.unwrap();
    let threads = world.fake.threads_of(world.lobby);
    assert_eq!(threads.len(), 2, "a thread per game");
    for thread in &threads {
        assert!(announced.content.contains(&format!("<#{}>", thread.id.get())), "{}", announced.content);
    }
    let mut finalists = Vec::new();
    for thread in &threads {
        let opening = world.fake.wait_message(thread.id, |m| m.content.contains("(White)")).await.unwrap();
        assert_board(&opening);
        let (white, black) = white_and_black(&opening, &names);
        for player in [white, black] {
            assert!(opening.content.contains(&format!("<@{}>", player.get())), "{}", opening.content);
        }
        fools_mate(&world, thread.id, white, black).await;
        finalists.push(black);
    }

    // The final opens by itself once round 1 is over.
    let final_round = world.fake.wait_message(world.lobby, |m| m.content.contains("round 2 of 2")).await.unwrap();
    let threads = world.fake.threads_of(world.lobby);
    assert_eq!(threads.len(), 3, "the final gets a thread too");
    let last = threads.iter().find(|t| final_round.content.contains(&format!("<#{}>", t.id.get()))).expect("linked");
    let opening = world.fake.wait_message(last.id, |m| m.content.contains("(White)")).await.unwrap();
    let (white, black) = white_and_black(&opening, &names);
    let mut pair = vec![white, black];
    pair.sort();
    finalists.sort();
    assert_eq!(pair, finalists, "the winners of round 1 meet");
    fools_mate(&world, last.id, white, black).await;

    // The standings: a table and a picture, in the tournament's channel.
    let standings = world.fake.wait_message(world.lobby, |m| m.content.contains("\"Club Cup\" is over")).await.unwrap();
    let winner = names.iter().find(|(_, id)| **id == black).map(|(n, _)| n.clone()).unwrap();
    assert!(standings.content.contains(&format!("{winner} wins!")), "{}", standings.content);
    assert!(standings.content.contains("Buchholz"), "tie-breaks in the table: {}", standings.content);
    let picture = standings.attachments.iter().find(|a| a.filename.ends_with(".png")).expect("a standings picture");
    let decoded = png::Decoder::new(std::io::Cursor::new(&picture.bytes)).read_info();
    assert!(decoded.is_ok(), "a valid PNG");
    let asked = world.slash(world.carol, world.lobby, "tournament standings", json!({})).await.message;
    assert!(asked.content.contains(&winner), "{}", asked.content);
}

#[tokio::test]
async fn only_the_organiser_or_a_server_manager_cancels() {
    let world = World::new().await;
    let args = json!({
        "name": "Friday Swiss",
        "variant": world.choice("tournament create", "variant", "Werewolf Chess"),
        "format": world.choice("tournament create", "format", "Swiss"),
        "rounds": 3,
    });
    world.slash(world.alice, world.lobby, "tournament create", args).await;
    let bob = world.slash(world.bob, world.lobby, "tournament cancel", json!({})).await.message;
    assert!(bob.is_ephemeral(), "{}", bob.content);
    let listed = world.slash(world.bob, world.lobby, "tournament list", json!({})).await.message;
    assert!(listed.content.contains("Friday Swiss"), "{}", listed.content);
    world.fake.grant_manage_server(world.carol);
    let carol = world.slash(world.carol, world.lobby, "tournament cancel", json!({})).await.message;
    assert!(!carol.is_ephemeral() && carol.content.contains("cancel"), "{}", carol.content);
}
