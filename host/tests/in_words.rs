//! Boards for those who do not see the picture, and a player's games in one list: every board
//! image's alt text names the pieces by square, `/board text` gives them without a picture,
//! and `/games` lists the asker's running games in every channel, with whose move it is.

mod common;

use common::{text, Club};

/// A game between alice (White) and bob in `channel`, with `moves` played.
async fn game(club: &Club, channel: &str, moves: &[&str]) {
    assert!(!club.say("alice", channel, "/challenge @bob variant:chess color:white").await.is_error());
    assert!(!club.say("bob", channel, "/accept").await.is_error());
    for (i, m) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { "alice" } else { "bob" };
        let reply = club.say(who, channel, &format!("/move {m}")).await;
        assert!(!reply.is_error(), "{m}: {}", text(&reply));
    }
}

#[tokio::test]
async fn a_board_picture_s_alt_text_names_every_piece() {
    let club = Club::open().await;
    game(&club, "g", &["e4"]).await;
    let reply = club.say("alice", "g", "/board").await;
    let image = &reply.messages[0].images[0];
    assert_eq!(
        image.alt,
        "Chess board after e4, bob (Black) to move, Black at the bottom. \
         White: king e1; queen d1; rooks a1, h1; bishops c1, f1; knights b1, g1; \
         pawns a2, b2, c2, d2, f2, g2, h2, e4. \
         Black: king e8; queen d8; rooks a8, h8; bishops c8, f8; knights b8, g8; \
         pawns a7, b7, c7, d7, e7, f7, g7, h7."
    );
    // The picture after a move says the same.
    let moved = club.say("bob", "g", "/move e5").await;
    let alt = &moved.messages[0].images[0].alt;
    assert!(alt.starts_with("Chess board after e5, alice (White) to move"), "{alt}");
    assert!(alt.contains("pawns e5, a7, b7, c7, d7, f7, g7, h7."), "{alt}");
}

#[tokio::test]
async fn board_text_gives_the_pieces_in_words_and_no_picture() {
    let club = Club::open().await;
    game(&club, "g", &["e4", "e5", "Nf3"]).await;
    let reply = club.say("carol", "g", "/board text").await;
    assert!(!reply.is_error(), "{}", text(&reply));
    assert!(reply.messages[0].images.is_empty());
    let said = text(&reply);
    assert!(said.starts_with("Game 1: alice (White) against bob (Black), Chess."), "{said}");
    assert!(said.contains("Last move: 2. Nf3."), "{said}");
    assert!(said.contains("White: king e1; queen d1; rooks a1, h1; bishops c1, f1; knights b1, f3;"), "{said}");
    // The long form, and a word it does not know.
    assert_eq!(text(&club.say("carol", "g", "/board show:text").await), said);
    let bad = club.say("carol", "g", "/board words").await;
    assert!(bad.is_error());
    assert!(text(&bad).contains("`words`: `/board` shows a picture, or with `/board text`"), "{}", text(&bad));
    // Before any move.
    game(&club, "h", &[]).await;
    assert!(text(&club.say("carol", "h", "/board text").await).contains("No move yet."));
}

#[tokio::test]
async fn games_lists_the_asker_s_running_games_everywhere_to_the_asker_only() {
    let club = Club::open_with(|settings| {
        settings.channel_link =
            |server, channel| Some(format!("https://chat.example/{}/{channel}", server.unwrap_or("dm")))
    })
    .await;
    game(&club, "first", &["e4"]).await;
    game(&club, "second", &["d4", "d5"]).await;
    let reply = club.say("alice", "elsewhere", "/games").await;
    assert!(!reply.is_error(), "{}", text(&reply));
    assert!(reply.messages[0].private, "shown to the asker only");
    let said = text(&reply);
    assert!(said.starts_with("Your running games (2):"), "{said}");
    let lines: Vec<&str> = said.lines().collect();
    assert!(lines[1].starts_with("game 1: Chess, White against bob in https://chat.example/"), "{said}");
    assert!(lines[1].ends_with("/first: their move"), "{said}");
    assert!(lines[2].ends_with("/second: your move"), "{said}");
    let bobs = text(&club.say("bob", "first", "/games").await);
    assert!(bobs.contains("game 1: Chess, Black against alice") && bobs.contains("first: your move"), "{bobs}");
    // A finished game leaves the list; someone with none is told so.
    club.say("alice", "first", "/resign confirm:yes").await;
    let after = text(&club.say("alice", "first", "/games").await);
    assert!(after.starts_with("Your running games (1):") && !after.contains("game 1:"), "{after}");
    let none = club.say("carol", "first", "/games").await;
    assert!(text(&none).starts_with("You have no running games"), "{}", text(&none));
    assert!(none.messages[0].private);
}
