//! Who can see a game named by its number (`/pgn game:N`, `/gif game:N`, `/analyse game:N`,
//! `/history`): its players from anywhere on its platform, anyone at the place it was played (the
//! same Discord server, the same Matrix room, the same direct chat), and for a tournament game,
//! anyone in the tournament's server. Anyone else is told exactly what a number that names no
//! game is told.

mod common;

use common::{text, Club, Place};

/// `white` challenges `black` at `place`, `black` accepts, and `white` resigns: a finished game.
async fn finished_game(club: &Club, place: &Place, white: &str, black: &str) {
    for (who, line) in [
        (white, format!("/challenge @{black} variant:chess color:white rated:no")),
        (black, "/accept".to_string()),
        (white, "/resign confirm:yes".to_string()),
    ] {
        let reply = club.at(place, who, &line).await;
        assert!(!reply.is_error(), "{who}: {line} was refused: {}", text(&reply));
    }
}

/// `who`'s request at `place` is refused exactly as a game that does not exist is.
async fn hidden(club: &Club, place: &Place, who: &str, line: &str, id: u32) {
    let reply = club.at(place, who, line).await;
    assert!(reply.is_error(), "{who} at {place:?}: {line} was answered: {}", text(&reply));
    assert_eq!(text(&reply), format!("There is no game {id}."), "{who} at {place:?}: {line}");
}

/// `who`'s request at `place` is answered.
async fn seen(club: &Club, place: &Place, who: &str, line: &str) -> String {
    let reply = club.at(place, who, line).await;
    assert!(!reply.is_error(), "{who} at {place:?}: {line} was refused: {}", text(&reply));
    text(&reply)
}

#[tokio::test]
async fn a_matrix_direct_chat_game_cannot_be_read_from_another_room_or_from_discord() {
    let club = Club::open().await;
    // On Matrix the server of a request is its room: a direct chat is a room of two. (People
    // here go without the `@` of a Matrix id: the harness reads `@name` as a mention.)
    let dm = Place::new("matrix", Some("!dm:example.org"), "!dm:example.org");
    finished_game(&club, &dm, "alice:example.org", "bob:example.org").await;
    let other_room = Place::new("matrix", Some("!lobby:example.org"), "!lobby:example.org");
    let discord = Place::new("discord", Some("guild-1"), "general");
    for line in ["/pgn game:1", "/gif game:1", "/analyse game:1"] {
        hidden(&club, &other_room, "mallory:example.org", line, 1).await;
        hidden(&club, &discord, "mallory", line, 1).await;
        // The same id on another platform is another user.
        hidden(&club, &discord, "alice:example.org", line, 1).await;
    }
    // A number that names no game reads the same.
    hidden(&club, &other_room, "mallory:example.org", "/pgn game:2", 2).await;
    // The players and the room itself still see it, and a thread of the room is the room.
    seen(&club, &dm, "bob:example.org", "/pgn game:1").await;
    let thread = Place::new("matrix", Some("!dm:example.org"), "!dm:example.org/$root");
    seen(&club, &thread, "carol:example.org", "/pgn game:1").await;
    seen(&club, &other_room, "alice:example.org", "/gif game:1").await;
}

#[tokio::test]
async fn a_game_of_one_discord_server_cannot_be_read_from_another() {
    let club = Club::open().await;
    let here = Place::new("discord", Some("guild-1"), "private-room");
    finished_game(&club, &here, "alice", "bob").await;
    let elsewhere = Place::new("discord", Some("guild-2"), "general");
    for line in ["/pgn game:1", "/gif game:1", "/analyse game:1"] {
        hidden(&club, &elsewhere, "mallory", line, 1).await;
    }
    // Nor does `/history` name it there.
    let history = seen(&club, &elsewhere, "mallory", "/history user:@alice").await;
    assert!(!history.contains("game 1"), "{history}");
    // In the same server, from another channel, it is seen; and by its players anywhere.
    let same_server = Place::new("discord", Some("guild-1"), "general");
    seen(&club, &same_server, "carol", "/pgn game:1").await;
    seen(&club, &same_server, "carol", "/gif game:1").await;
    seen(&club, &elsewhere, "bob", "/pgn game:1").await;
    let history = seen(&club, &same_server, "carol", "/history user:@alice").await;
    assert!(history.contains("game 1"), "{history}");
}

#[tokio::test]
async fn a_player_fetches_their_own_game_from_a_direct_message_and_nobody_else_does() {
    let club = Club::open().await;
    let server = Place::new("discord", Some("guild-1"), "general");
    finished_game(&club, &server, "alice", "bob").await;
    let alice_dm = Place::new("discord", None, "dm-alice");
    let pgn = seen(&club, &alice_dm, "alice", "/pgn game:1").await;
    assert!(pgn.contains("[White \"alice\"]"), "{pgn}");
    seen(&club, &alice_dm, "alice", "/gif game:1").await;
    let carol_dm = Place::new("discord", None, "dm-carol");
    hidden(&club, &carol_dm, "carol", "/pgn game:1", 1).await;

    // A game played in a direct message is seen in that direct message, by its players, and
    // nowhere else.
    let dm_game = Place::new("discord", None, "dm-dave-erin");
    finished_game(&club, &dm_game, "dave", "erin").await;
    seen(&club, &dm_game, "erin", "/pgn game:2").await;
    hidden(&club, &carol_dm, "carol", "/pgn game:2", 2).await;
    hidden(&club, &server, "carol", "/pgn game:2", 2).await;
}

#[tokio::test]
async fn a_tournament_game_is_seen_in_the_tournaments_server_only() {
    let club = Club::open().await;
    let events = Place::new("discord", Some("guild-1"), "events");
    seen(&club, &events, "kate", "/tournament create name:Cup variant:chess format:round-robin time:10+0 rated:no")
        .await;
    for p in ["alice", "bob"] {
        seen(&club, &events, p, "/tournament join").await;
    }
    seen(&club, &events, "kate", "/tournament start").await;
    let (thread, _) = club.rooms.opened().into_iter().next().expect("the game's thread");
    let board = seen(&club, &Place::new("discord", Some("guild-1"), &thread), "alice", "/board").await;
    assert!(board.contains("Game 1"), "{board}");
    // Anyone in the server sees it, from any channel of it; nobody from another server.
    let lounge = Place::new("discord", Some("guild-1"), "lounge");
    seen(&club, &lounge, "carol", "/pgn game:1").await;
    let elsewhere = Place::new("discord", Some("guild-2"), "general");
    hidden(&club, &elsewhere, "mallory", "/pgn game:1", 1).await;
}
