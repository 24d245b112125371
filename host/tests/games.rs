//! A game through the host, from challenge to mate, and what each player may do in it.

mod common;

use common::{text, Club};

#[tokio::test]
async fn a_game_from_challenge_to_mate() {
    let club = Club::open().await;
    club.game("general", "alice", "bob", "chess", "").await;
    club.moves("general", "alice", "bob", &["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"]).await;
    let mate = club.ok("alice", "general", "/move Qxf7#").await;
    assert!(mate.contains("checkmate"), "{mate}");
    let after = club.refused("bob", "general", "/move Ke7").await;
    assert!(after.contains("no game"), "{after}");
}

#[tokio::test]
async fn only_the_player_to_move_moves() {
    let club = Club::open().await;
    club.game("general", "alice", "bob", "golem", "").await;
    let not_yours = club.refused("bob", "general", "/move e5").await;
    assert!(!not_yours.is_empty());
    let stranger = club.refused("carol", "general", "/move e4").await;
    assert!(!stranger.is_empty());
    club.ok("alice", "general", "/move e4").await;
    let board = club.say("carol", "general", "/board").await;
    assert!(!board.is_error(), "{}", text(&board));
}
