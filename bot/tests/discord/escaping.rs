//! What a user typed shows as typed: a player's name and a tournament's name never turn into a
//! link, a mention or formatting, and a name never ends the code block a PGN is shown in.

use serde_json::json;

use crate::harness::{button, World};

/// A name that would be a masked link, a code fence, a role mention and `@everyone`.
const HOSTILE: &str = "[prize](https://example.com) ```<@&1> @everyone";
/// The same name as Discord's markdown must receive it to show it as typed.
const ESCAPED: &str = r"\[prize\](https\://example.com) \`\`\`\<\@&1\> \@everyone";

#[tokio::test]
async fn a_players_name_shows_as_typed_in_messages_and_in_the_pgn() {
    let world = World::new().await;
    let mallory = world.fake.add_user(HOSTILE);
    let args = json!({
        "variant": world.choice("challenge", "variant", "Chess"),
        "opponent": world.bob.get().to_string(),
        "color": world.choice("challenge", "color", "White"),
    });
    let challenge = world.slash(mallory, world.lobby, "challenge", args).await.message;
    assert!(challenge.content.contains(&format!("{ESCAPED} challenges bob")), "{}", challenge.content);
    assert!(!challenge.content.contains("[prize](https://example.com)"), "{}", challenge.content);
    let accepted = world.fake.click(world.bob, challenge.id, &button(&challenge, "/accept")).expect("the button");
    let start = accepted.followups(1).await.expect("the game starts").remove(0);
    assert!(start.content.contains(&format!("{ESCAPED} (White) against bob (Black)")), "{}", start.content);

    for (user, text) in [(mallory, "f3"), (world.bob, "e5"), (mallory, "g4"), (world.bob, "Qh4#")] {
        let answer = world.slash(user, world.lobby, "move", json!({ "move": text })).await.message;
        assert!(!answer.is_ephemeral(), "{text}: {}", answer.content);
    }
    let pgn = world.slash(world.carol, world.lobby, "pgn", json!({ "game": 1 })).await.message;
    // One code block, opened and closed by the host; the name's backticks are look-alikes in it.
    assert_eq!(pgn.content.matches("```").count(), 2, "{}", pgn.content);
    assert!(pgn.content.starts_with("```") && pgn.content.trim_end().ends_with("```"), "{}", pgn.content);
    assert!(pgn.content.contains("[White \"[prize](https://example.com) ˋˋˋ<@&1> @everyone\"]"), "{}", pgn.content);
}

#[tokio::test]
async fn a_tournaments_name_shows_as_typed() {
    let world = World::new().await;
    let args = json!({
        "name": "[prize](https://example.com) <@&1> @everyone",
        "variant": world.choice("tournament create", "variant", "Chess"),
        "format": world.choice("tournament create", "format", "Swiss"),
    });
    let created = world.slash(world.alice, world.lobby, "tournament create", args).await.message;
    assert!(!created.is_ephemeral(), "{}", created.content);
    assert!(
        created.content.contains(r#""\[prize\](https\://example.com) \<\@&1\> \@everyone""#),
        "{}",
        created.content
    );
    let joined = world.slash(world.bob, world.lobby, "tournament join", json!({})).await.message;
    assert!(joined.content.contains(r"\[prize\]"), "{}", joined.content);
    assert!(!joined.content.contains("[prize]("), "{}", joined.content);
}
