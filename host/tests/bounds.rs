//! Bounds on what a stranger can make the host do: tournaments open at once, per organiser and
//! per server; `/tournament list` a page at a time; a finished game's replay drawn once; plain
//! chat in a game's room told apart before the game is loaded.

mod common;

use common::{text, Club, Place};

/// `who` creates a tournament called `name` at `place`: the reply.
async fn create(club: &Club, place: &Place, who: &str, name: &str) -> host::Reply {
    club.at(place, who, &format!("/tournament create name:{name} variant:chess format:swiss time:10+0 rated:no")).await
}

#[tokio::test]
async fn one_user_organises_a_bounded_number_of_tournaments_over_every_server() {
    let club = Club::open_with(|s| s.limits.tournaments_per_user = 2).await;
    let (one, two) =
        (Place::new("discord", Some("guild-1"), "events"), Place::new("discord", Some("guild-2"), "events"));
    assert!(!create(&club, &one, "kate", "A").await.is_error());
    assert!(!create(&club, &two, "kate", "B").await.is_error());
    let third = create(&club, &two, "kate", "C").await;
    assert!(third.is_error());
    assert_eq!(
        text(&third),
        "You organise 2 tournaments open or running, as many as one user may at once: finish or cancel one first."
    );
    // Nothing was made, and someone else still may.
    let listed = text(&club.at(&two, "kate", "/tournament list").await);
    assert!(!listed.contains("\"C\""), "{listed}");
    assert!(!create(&club, &two, "lee", "D").await.is_error());
    // A cancelled one no longer counts.
    assert!(!club.at(&one, "kate", "/tournament cancel").await.is_error());
    assert!(!create(&club, &one, "kate", "E").await.is_error());
}

#[tokio::test]
async fn one_server_has_a_bounded_number_of_tournaments_open() {
    let club = Club::open_with(|s| s.limits.tournaments_per_server = 2).await;
    let here = Place::new("discord", Some("guild-1"), "events");
    assert!(!create(&club, &here, "kate", "A").await.is_error());
    assert!(!create(&club, &here, "lee", "B").await.is_error());
    let third = create(&club, &here, "mo", "C").await;
    assert!(third.is_error());
    assert!(text(&third).starts_with("This server has 2 tournaments open or running"), "{}", text(&third));
    // Another server is another count.
    assert!(!create(&club, &Place::new("discord", Some("guild-2"), "events"), "mo", "C").await.is_error());
}

#[tokio::test]
async fn the_tournament_list_comes_a_page_at_a_time() {
    let club = Club::open_with(|s| s.limits.tournaments_per_user = 100).await;
    let here = Place::new("discord", Some("guild-1"), "events");
    for i in 1..=12 {
        assert!(!create(&club, &here, "kate", &format!("T{i}")).await.is_error());
        // Only the newest is live: the one a command without `id:` means.
        if i < 12 {
            assert!(!club.at(&here, "kate", "/tournament cancel").await.is_error());
        }
    }
    let first = text(&club.at(&here, "kate", "/tournament list").await);
    assert_eq!(first.lines().filter(|l| l.starts_with("tournament ")).count(), 10, "{first}");
    assert!(first.contains("(page 1 of 2)"), "{first}");
    assert!(first.contains("`/tournament list page:2`"), "{first}");
    let second = text(&club.at(&here, "kate", "/tournament list page:2").await);
    assert_eq!(second.lines().filter(|l| l.starts_with("tournament ")).count(), 2, "{second}");
    assert!(!second.contains("page:3"), "{second}");
    let past = club.at(&here, "kate", "/tournament list page:3").await;
    assert!(past.is_error(), "{}", text(&past));
    // Commands without `id:` still find the one live tournament, and `id:` finds any of this
    // server's, but none of another's.
    assert!(text(&club.at(&here, "lee", "/tournament join").await).contains("T12"));
    assert!(!club.at(&here, "kate", "/tournament standings id:1").await.is_error());
    let elsewhere =
        club.at(&Place::new("discord", Some("guild-2"), "events"), "kate", "/tournament standings id:1").await;
    assert!(elsewhere.is_error());
}

#[tokio::test]
async fn a_finished_games_replay_is_drawn_once() {
    let club = Club::open().await;
    club.game("general", "alice", "bob", "chess", "").await;
    club.moves("general", "alice", "bob", &["e4", "e5"]).await;
    club.ok("alice", "general", "/resign confirm:yes").await;
    let first = club.say("carol", "general", "/gif game:1").await;
    assert!(!first.is_error() && first.messages[0].images.len() == 1, "{}", text(&first));
    let drawn = club.host.replays_drawn();
    assert!(drawn >= 1);
    let second = club.say("dave", "general", "/gif game:1").await;
    assert_eq!(club.host.replays_drawn(), drawn, "the second /gif drew the replay again");
    assert_eq!(second.messages[0].images, first.messages[0].images);
}

#[tokio::test]
async fn plain_chat_in_a_game_room_does_not_load_the_game() {
    let club = Club::open().await;
    club.game("general", "alice", "bob", "chess", "").await;
    let host = &club.host;
    let before = host.games_replayed();
    for chat in ["good luck!", "gg", "thanks 🙂", "who's winning?"] {
        assert!(!host.is_bare_move("console", "general", "alice", chat).await.unwrap(), "{chat}");
    }
    assert_eq!(host.games_replayed(), before, "chat loaded the game");
    // A move is still a move.
    assert!(host.is_bare_move("console", "general", "alice", "e4").await.unwrap());
    assert!(host.games_replayed() > before);
}
