//! A team game on the fake Discord: #lobby's members challenge #club's, who accept; then each move decided by
//! each move is decided by their votes (`/move`, or the button that votes for the leading move),
//! 8 seconds a move.

use serde_json::json;

use super::harness::World;

#[tokio::test]
async fn a_team_game_between_two_channels_is_decided_by_votes_across_a_restart() {
    let mut world = World::new().await;
    let (lobby, club) = (world.lobby, world.fake.add_channel(world.guild, "club"));
    let variant = world.choice("challenge", "variant", "Chess");
    let white = world.choice("challenge", "color", "White");
    let args = json!({ "variant": variant, "team": club.get().to_string(), "color": white, "window": "8s" });
    let asked = world.slash(world.alice, lobby, "challenge", args).await.message;
    assert!(
        !asked.is_ephemeral() && asked.content.contains("The game begins when someone there accepts"),
        "{}",
        asked.content
    );
    let offer = world.fake.wait_message(club, |m| m.content.contains("challenges")).await.expect("#club is asked");
    assert!(offer.content.contains("lobby (team)") && offer.content.contains("club (team)"), "{}", offer.content);
    // Anyone in #club accepts for it; both channels hear the game begin.
    let started = world.slash(world.carol, club, "accept", json!({})).await.message;
    assert!(!started.is_ephemeral() && started.content.contains("Team game 1 begins"), "{}", started.content);
    world.fake.wait_message(lobby, |m| m.content.contains("Team game 1 begins")).await.expect("#lobby hears of it");

    // Votes are counted and shown as they come; the leading move has a button.
    let vote = |user, channel, text: &str| world.slash(user, channel, "move", json!({ "move": text }));
    let said = vote(world.alice, lobby, "e4").await.message;
    assert!(!said.is_ephemeral() && said.content.contains("e4 1 vote"), "{}", said.content);
    let said = vote(world.bob, lobby, "d4").await.message;
    assert!(said.content.contains("e4 1 vote, d4 1 vote"), "{}", said.content);
    let pressed = world.press(world.carol, &said, "/move e2e4").await.used();
    assert!(pressed.content.contains("e4 2 votes, d4 1 vote"), "{}", pressed.content);

    // The window closes: the most-voted move is played, and both channels hear it.
    for channel in [lobby, club] {
        let played = world.fake.wait_message(channel, |m| m.content.contains("plays 1. e4 by vote")).await;
        let played = played.expect("the window closes with e4");
        assert!(played.content.contains("(e4 2 votes, d4 1 vote)"), "{}", played.content);
    }

    // #club votes e5 first, then d5: a tie, which the first vote wins, after a restart.
    let said = vote(world.bob, club, "e5").await.message;
    assert!(said.content.contains("e5 1 vote"), "{}", said.content);
    let said = vote(world.carol, club, "d5").await.message;
    assert!(said.content.contains("e5 1 vote, d5 1 vote"), "{}", said.content);
    world.stop_bot().await;
    world.start_bot().await;
    let played = world.fake.wait_message(club, |m| m.content.contains("plays 1... e5 by vote")).await;
    assert!(played.expect("the votes survive the restart").content.contains("(e5 1 vote, d5 1 vote)"));

    // Nobody in #lobby votes: it loses on time.
    let lost = world.fake.wait_message(lobby, |m| m.content.contains("Time is up in game 1")).await;
    let lost = lost.expect("#lobby runs out of time");
    assert!(lost.content.contains("lobby (team)") && lost.content.contains("0-1"), "{}", lost.content);
}
