//! Team games through the host, on the console's channels and a manual clock: each side is the
//! members of a channel, whose `/move`s are votes; the most-voted move is played when the window
//! closes (a tie goes to the move voted first), a side with no vote loses on time, and the votes
//! are kept in the database across a restart.

mod common;

use common::{shown, text, Club, SECOND};
use host::Message;

/// #general (White) against #club (Black), 30 seconds a move.
async fn team_game(club: &Club) {
    let said = club.ok("alice", "general", "/challenge team:#club variant:chess color:white window:30s").await;
    assert!(
        said.contains(
            "#general (team) challenges #club (team) to a team game of Chess, 30 seconds per move by vote, \
                       #general (team) playing White, unrated."
        ),
        "{said}"
    );
    let said = club.ok("zoe", "club", "/accept").await;
    assert!(
        said.contains("Team game 1 begins: #general (team) (White) against #club (team) (Black), Chess, 30 seconds per move, by vote, unrated."),
        "{said}"
    );
    assert!(said.contains("#general (team) (White) to move. Votes close in 30 seconds."), "{said}");
}

/// What the tick said in `channel`.
fn said_in(messages: &[Message], channel: &str) -> String {
    let messages: Vec<Message> = messages.iter().filter(|m| m.channel.as_deref() == Some(channel)).cloned().collect();
    shown(messages).iter().map(|m| m.text.clone()).collect::<Vec<_>>().join("\n")
}

#[tokio::test]
async fn votes_are_counted_shown_as_they_come_and_the_most_voted_move_is_played() {
    let club = Club::open().await;
    team_game(&club).await;
    // Both channels hear of the game, and either shows it.
    assert!(club.ok("zoe", "club", "/board").await.contains("Game 1: #general (team) (White) against #club (team)"));

    let said = club.ok("alice", "general", "/move e4").await;
    assert!(said.contains("alice votes e4 for #general (team). Votes for 1.: e4 1 vote. Leading: e4."), "{said}");
    let said = club.ok("bob", "general", "/move d2d4").await;
    assert!(said.contains("Votes for 1.: e4 1 vote, d4 1 vote. Leading: e4."), "{said}");
    // Bob changes his mind; Carol follows the leader with its button.
    let said = club.ok("bob", "general", "/move e4").await;
    assert!(said.contains("Votes for 1.: e4 2 votes."), "{said}");
    let reply = club.say("carol", "general", "/move d4").await;
    let button = &reply.messages[0].buttons[0];
    assert_eq!((button.label.as_str(), button.command.to_string().as_str()), ("Vote e4", "/move e2e4 game:1"));
    assert!(text(&reply).contains("Votes for 1.: e4 2 votes, d4 1 vote."), "{}", text(&reply));
    // `/board` shows the votes in the voting team's channel, and only there.
    for ask in ["/board", "/board text"] {
        let board = club.ok("dave", "general", ask).await;
        assert!(board.contains("Votes for 1.: e4 2 votes, d4 1 vote. The vote closes in "), "{ask}: {board}");
        let board = club.ok("zoe", "club", ask).await;
        assert!(board.contains("#general (team) (White) to move") && !board.contains("vote"), "{ask}: {board}");
    }

    // Not a vote: a move that is no move, and the other team before its turn.
    let refused = club.refused("dave", "general", "/move e5").await;
    assert!(refused.contains("e5"), "{refused}");
    let refused = club.refused("zoe", "club", "/move e5").await;
    assert!(refused.contains("It is #general (team)'s move (White); #club (team) votes"), "{refused}");
    // Nobody resigns for a team.
    assert!(club.refused("alice", "general", "/resign").await.contains("In a team game each side's members vote"));

    assert!(club.pass(29 * SECOND).await.is_empty(), "the window is open");
    let said = club.pass(2 * SECOND).await;
    let expected = "Game 1: #general (team) (White) plays 1. e4 by vote (e4 2 votes, d4 1 vote). #club (team) (Black) \
                    to move. Votes close in 30 seconds.";
    assert!(said_in(&said, "general").contains(expected), "{said:?}");
    assert!(said_in(&said, "club").contains(expected), "{said:?}");
    // A late vote for a window that is over is refused; the next team's vote counts.
    assert!(club.refused("alice", "general", "/move d4").await.contains("It is #club (team)'s move"));
    let said = club.ok("zoe", "club", "/move c5").await;
    assert!(said.contains("zoe votes c5 for #club (team). Votes for 1...: c5 1 vote."), "{said}");

    // Never rated, and the PGN names the teams.
    let pgn = club.ok("zoe", "club", "/pgn").await;
    assert!(pgn.contains("[White \"#general (team)\"]") && pgn.contains("[Black \"#club (team)\"]"), "{pgn}");
}

#[tokio::test]
async fn a_tie_goes_to_the_move_voted_first() {
    let club = Club::open().await;
    team_game(&club).await;
    // e4 first, then d4: as many votes each; d4 would come first in any order of the moves.
    club.ok("alice", "general", "/move e4").await;
    club.ok("bob", "general", "/move d4").await;
    let said = club.pass(31 * SECOND).await;
    assert!(said_in(&said, "general").contains("plays 1. e4 by vote (e4 1 vote, d4 1 vote)."), "{said:?}");
    // A vote changed later counts from when it was changed: d5 is voted first but Cy leaves it
    // and comes back, after Di's e5.
    club.ok("cy", "club", "/move d5").await;
    club.ok("cy", "club", "/move c5").await;
    club.ok("di", "club", "/move e5").await;
    club.ok("cy", "club", "/move d5").await;
    let said = club.pass(31 * SECOND).await;
    assert!(said_in(&said, "club").contains("plays 1... e5 by vote (e5 1 vote, d5 1 vote)."), "{said:?}");
}

#[tokio::test]
async fn a_side_with_no_vote_when_its_window_ends_loses_on_time() {
    let club = Club::open().await;
    team_game(&club).await;
    club.ok("alice", "general", "/move e4").await;
    club.pass(31 * SECOND).await;
    let said = club.pass(31 * SECOND).await;
    for channel in ["general", "club"] {
        let heard = said_in(&said, channel);
        assert!(heard.contains("Time is up in game 1: #club (team) (Black) ran out of time."), "{said:?}");
        assert!(heard.contains("1-0"), "{heard}");
    }
    let refused = club.refused("zoe", "club", "/move e5").await;
    assert!(refused.contains("There is no game in #club"), "{refused}");
}

#[tokio::test]
async fn a_restart_in_the_middle_of_a_window_keeps_the_votes() {
    let club = Club::open().await;
    team_game(&club).await;
    club.ok("alice", "general", "/move d4").await;
    club.ok("bob", "general", "/move Nf3").await;
    club.ok("carol", "general", "/move Nf3").await;
    club.pass(10 * SECOND).await;
    let club = club.restart().await;
    let said = club.ok("dave", "general", "/move d4").await;
    // Alice's d4 came first: it leads the tie.
    assert!(said.contains("Votes for 1.: d4 2 votes, Nf3 2 votes."), "the votes before the restart count: {said}");
    let said = club.pass(21 * SECOND).await;
    assert!(said_in(&said, "general").contains("plays 1. d4 by vote (d4 2 votes, Nf3 2 votes)."), "{said:?}");
}

#[tokio::test]
async fn a_channel_plays_chimera_together() {
    let club = Club::open().await;
    let said = club.ok("alice", "general", "/play variant:chess level:1 color:white team:yes window:1m").await;
    assert!(said.contains("Team game 1 begins: #general (team) (White) against Chimera (level 1) (Black)"), "{said}");
    club.ok("alice", "general", "/move e4").await;
    let said = club.pass(61 * SECOND).await;
    assert!(
        said_in(&said, "general").contains("plays 1. e4 by vote (e4 1 vote). Chimera (level 1) (Black) to move."),
        "{said:?}"
    );
    club.host.engines_idle().await;
    let said = club.pass(0).await;
    assert!(said_in(&said, "general").contains("Chimera (level 1) (Black) played 1..."), "{said:?}");
    // Its team votes again.
    let said = club.ok("bob", "general", "/move d4").await;
    assert!(said.contains("bob votes d4 for #general (team). Votes for 2.: d4 1 vote."), "{said}");
}

#[tokio::test]
async fn a_team_game_needs_two_free_channels() {
    let club = Club::open().await;
    let refused = club.refused("alice", "general", "/challenge team:#general variant:chess").await;
    assert!(refused.contains("between two channels"), "{refused}");
    club.game("club", "ann", "bo", "chess", "").await;
    let refused = club.refused("alice", "general", "/challenge team:#club variant:chess").await;
    assert!(refused.contains("#club (team) has a game on"), "{refused}");
    // Nor may a team's channel start another game while its team plays.
    team_game_in(&club, "lobby", "#general").await;
    assert!(club.ok("gus", "general", "/accept").await.contains("Team game 2 begins"));
    let refused = club.refused("alice", "general", "/challenge team:#other variant:chess").await;
    assert!(refused.contains("#general (team) has a game on"), "{refused}");
}

async fn team_game_in(club: &Club, here: &str, there: &str) {
    club.ok("alice", here, &format!("/challenge team:{there} variant:chess window:30s")).await;
}

#[tokio::test]
async fn the_other_channel_accepts_or_declines_a_team_challenge() {
    let club = Club::open().await;
    let said = club.say("alice", "general", "/challenge team:#club variant:grolman window:1h").await;
    // The offer is posted in #club, with its buttons; #general is told it waits.
    let offer = said.messages.iter().find(|m| m.channel.as_deref() == Some("club")).expect("an offer in #club");
    assert!(offer.text.contains("Anyone here may `/accept` it (or `/decline`)"), "{}", offer.text);
    let labels: Vec<&str> = offer.buttons.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(labels, ["Accept", "Decline"]);
    assert!(text(&said).contains("The game begins when someone there accepts"), "{}", text(&said));
    // Nothing has started: #club is free, and #general cannot accept for #club.
    assert!(club.refused("zoe", "club", "/board").await.contains("There is no game in #club"));
    assert!(club.refused("bob", "general", "/accept").await.contains("no challenge to accept in #general"));

    // A member of #club declines it for #club.
    let said = club.ok("zoe", "club", "/decline").await;
    assert!(said.contains("zoe declines #general (team)'s challenge"), "{said}");
    assert!(said.contains("(an unrated team game of Grolman Chess, by vote)"), "not \"no clock\": {said}");
    assert!(club.refused("yan", "club", "/accept").await.contains("no challenge to accept in #club"));

    // A second challenge replaces the first; the new one is accepted where it was posted.
    club.ok("alice", "general", "/challenge team:#club variant:chess window:1h").await;
    let said = club.ok("bob", "general", "/challenge team:#lobby variant:chess window:1h").await;
    assert!(said.contains("This replaces the challenge to #club (team)."), "{said}");
    assert!(club.refused("zoe", "club", "/accept").await.contains("no challenge to accept in #club"));
    // A channel that started a game of its own meanwhile cannot take the team game on.
    club.ok("ann", "lobby", "/challenge @bo variant:chess").await;
    club.ok("bo", "lobby", "/accept challenger:@ann").await;
    let refused = club.refused("cy", "lobby", "/accept").await;
    assert!(refused.contains("#lobby (team) has a game on"), "{refused}");
}
