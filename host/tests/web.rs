//! The chat's side of the web pages: `/settings web:on|off`, a place's listing switch (managers
//! only, never on where only members read, off when a room becomes encrypted), and the links
//! that messages showing a game or a tournament carry to its page when the pages have an address.

mod common;

use common::{text, Club, Place, MINUTE};
use host::{Link, Message, PlaceKind, Reply, WebUrl};

const BASE: &str = "https://chess.example.org/chimera/";

fn store(club: &Club) -> data::Store {
    data::Store::open(club.dir.path().join("chimera.db")).unwrap()
}

/// Whether `server` of `platform` is listed, as stored.
fn listed(club: &Club, platform: &str, server: &str) -> bool {
    store(club).read(|tx| tx.web_listing(platform, server)).unwrap()
}

/// How many places have any setting stored at all.
fn places_with_settings(club: &Club) -> i64 {
    let db = rusqlite::Connection::open(club.dir.path().join("chimera.db")).unwrap();
    db.query_row("SELECT COUNT(*) FROM place_settings", [], |row| row.get(0)).unwrap()
}

async fn refused(club: &Club, place: &Place, manager: bool, line: &str) -> String {
    let reply = if manager { club.as_manager(place, "admin", line).await } else { club.at(place, "eve", line).await };
    assert!(reply.is_error(), "{line} at {place:?} was not refused: {}", text(&reply));
    text(&reply)
}

async fn answered(club: &Club, place: &Place, manager: bool, line: &str) -> String {
    let reply = if manager { club.as_manager(place, "admin", line).await } else { club.at(place, "eve", line).await };
    assert!(!reply.is_error(), "{line} at {place:?} was refused: {}", text(&reply));
    text(&reply)
}

#[tokio::test]
async fn only_a_manager_changes_the_listing_and_anyone_sees_it() {
    let club = Club::open().await;
    let general = Place::new("discord", Some("guild-1"), "general");
    assert!(answered(&club, &general, false, "/settings").await.contains("web: off"));

    let why = refused(&club, &general, false, "/settings web:on").await;
    assert!(why.contains("Only a manager of this server"), "{why}");
    assert_eq!(places_with_settings(&club), 0, "a refused change writes nothing");

    let said = answered(&club, &general, true, "/settings web:on").await;
    assert!(said.contains("turns this server's web listing on"), "{said}");
    assert!(listed(&club, "discord", "guild-1"));
    assert!(!listed(&club, "discord", "guild-2") && !listed(&club, "matrix", "guild-1"), "one place only");
    let shown = answered(&club, &general, false, "/settings").await;
    assert!(shown.contains("web: on") && shown.contains("/settings web:off"), "{shown}");
    // Another channel of the same server is the same place.
    let other = Place::new("discord", Some("guild-1"), "chess-corner");
    assert!(answered(&club, &other, false, "/settings").await.contains("web: on"));

    let why = refused(&club, &general, false, "/settings web:off").await;
    assert!(why.contains("Only a manager"), "{why}");
    assert!(listed(&club, "discord", "guild-1"), "still on");
    answered(&club, &general, true, "/settings web:off").await;
    assert!(!listed(&club, "discord", "guild-1"));
    assert!(answered(&club, &general, false, "/settings").await.contains("web: off"));
}

#[tokio::test]
async fn the_console_and_direct_messages_have_no_server_settings() {
    let club = Club::open().await;
    let console = Place::console("general");
    let discord_dm = Place::new("discord", None, "dm-1");
    for place in [&console, &discord_dm] {
        let shown = answered(&club, place, false, "/settings").await;
        assert!(shown.contains("No server settings here") && !shown.contains("web:"), "{shown}");
        for line in ["/settings web:on", "/settings web:off", "/settings web:off theme:blue"] {
            let why = refused(&club, place, true, line).await;
            assert!(why.contains("the console and direct messages have only your own settings"), "{line}: {why}");
        }
    }
    assert_eq!(places_with_settings(&club), 0, "nothing written");
}

#[tokio::test]
async fn direct_chats_and_encrypted_rooms_are_never_listed_but_may_always_be_turned_off() {
    let club = Club::open().await;
    for (kind, why) in [(PlaceKind::Encrypted, "this room is encrypted"), (PlaceKind::Direct, "this is a direct chat")]
    {
        let room = format!("!{kind:?}:example.org");
        let place = Place::new("matrix", Some(&room), &room).of_kind(kind);
        let before = places_with_settings(&club);
        let said = refused(&club, &place, true, "/settings web:on").await;
        assert_eq!(said, format!("Games in Matrix direct chats and encrypted rooms never get a listing, and {why}."));
        assert_eq!(places_with_settings(&club), before, "nothing written");
        let shown = answered(&club, &place, false, "/settings").await;
        assert!(shown.contains(&format!("web: off (never on here: {why})")), "{shown}");
        answered(&club, &place, true, "/settings web:off").await;
        assert!(!listed(&club, "matrix", &room));
    }
}

#[tokio::test]
async fn a_room_that_becomes_encrypted_loses_its_listing() {
    let club = Club::open_with(|settings| settings.platform = "matrix".into()).await;
    let room = Place::new("matrix", Some("!room:example.org"), "!room:example.org");
    let other = Place::new("matrix", Some("!other:example.org"), "!other:example.org");
    answered(&club, &room, true, "/settings web:on").await;
    answered(&club, &other, true, "/settings web:on").await;
    assert!(club.host.place_encrypted("!room:example.org").await.unwrap(), "it was on");
    assert!(!listed(&club, "matrix", "!room:example.org"));
    assert!(listed(&club, "matrix", "!other:example.org"), "only the room that became encrypted");
    assert!(!club.host.place_encrypted("!room:example.org").await.unwrap(), "off already: nothing to do");
    assert!(!club.host.place_encrypted("!never:example.org").await.unwrap());
    // Now encrypted, it stays off.
    let encrypted = room.of_kind(PlaceKind::Encrypted);
    refused(&club, &encrypted, true, "/settings web:on").await;
    assert!(!listed(&club, "matrix", "!room:example.org"));
}

/// The links of every message of `reply`.
fn links(reply: &Reply) -> Vec<Link> {
    reply.messages.iter().flat_map(|m| m.links.clone()).collect()
}

fn watch(url: String) -> Vec<Link> {
    vec![Link { label: "Watch".into(), url }]
}

#[tokio::test]
async fn a_game_s_messages_link_to_its_page_when_the_pages_have_an_address() {
    let club = Club::open_with(|settings| settings.web_url = Some(BASE.parse().unwrap())).await;
    club.ok("alice", "general", "/challenge @bob variant:chess color:white rated:no time:1+0").await;
    let started = club.say("bob", "general", "/accept").await;
    let key = store(&club).read(|tx| Ok(tx.game(1)?.web_key)).unwrap();
    let page = format!("https://chess.example.org/chimera/g/{key}");
    assert_eq!(links(&started), watch(page.clone()), "the new game's announcement");
    assert_eq!(links(&club.say("alice", "general", "/move e4").await), watch(page.clone()), "a move's board");
    assert_eq!(links(&club.say("carol", "general", "/board").await), watch(page.clone()), "/board");
    assert_eq!(links(&club.say("carol", "general", "/game").await), watch(page.clone()), "/game");
    club.ok("bob", "general", "/move e5").await;
    // White's minute runs out: the scheduler's announcement of the end links to the page too.
    let said: Vec<Message> = club.pass(2 * MINUTE).await;
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].text.contains("Time is up in game 1"), "{}", said[0].text);
    assert_eq!(said[0].links, watch(page.clone()));

    // A game that ends by a move or a resignation says so with the link as well.
    club.game("lobby", "alice", "bob", "chess", "").await;
    let key = store(&club).read(|tx| Ok(tx.game(2)?.web_key)).unwrap();
    let resigned = club.say("bob", "lobby", "/resign confirm:yes").await;
    assert!(text(&resigned).contains("bob resigns"), "{}", text(&resigned));
    assert_eq!(links(&resigned), watch(format!("https://chess.example.org/chimera/g/{key}")));
}

#[tokio::test]
async fn without_an_address_no_message_carries_a_link() {
    let club = Club::open().await;
    club.ok("alice", "general", "/challenge @bob variant:chess color:white rated:no").await;
    let mut replies = vec![club.say("bob", "general", "/accept").await];
    for (who, line) in [("alice", "/move e4"), ("carol", "/board"), ("carol", "/game"), ("bob", "/resign confirm:yes")]
    {
        replies.push(club.say(who, "general", line).await);
    }
    for reply in &replies {
        assert!(!reply.is_error(), "{}", text(reply));
        assert_eq!(links(reply), Vec::new(), "{}", text(reply));
    }
}

#[tokio::test]
async fn a_tournament_s_messages_link_to_its_page() {
    let club = Club::open_with(|settings| settings.web_url = Some(BASE.parse().unwrap())).await;
    let created = club.say("alice", "general", "/tournament create name:Cup variant:chess format:swiss rounds:1").await;
    assert!(!created.is_error(), "{}", text(&created));
    let key = store(&club).read(|tx| Ok(tx.tournament(1)?.web_key)).unwrap();
    let page =
        vec![Link { label: "Tournament page".into(), url: format!("https://chess.example.org/chimera/t/{key}") }];
    assert_eq!(links(&created), page);
    club.ok("bob", "general", "/tournament join").await;
    club.ok("alice", "general", "/tournament join").await;
    let started = club.say("alice", "general", "/tournament start").await;
    assert_eq!(links(&started), page, "{}", text(&started));
    assert_eq!(links(&club.say("carol", "general", "/tournament pairings").await), page);
    assert_eq!(links(&club.say("carol", "general", "/tournament standings").await), page);
    // The round's announcement, posted by the host on its own, links to the tournament; its
    // game's first message, in the game's own channel, to the game.
    let posted = club.rooms.posted();
    let round =
        posted.iter().find(|m| m.images.is_empty() && m.text.contains(": round 1")).expect("the round is announced");
    assert_eq!(round.links, page, "{}", round.text);
    let game = store(&club).read(|tx| Ok(tx.game(1)?.web_key)).unwrap();
    let first = posted.iter().find(|m| !m.images.is_empty()).expect("the game's first board");
    assert_eq!(first.links, watch(format!("https://chess.example.org/chimera/g/{game}")));
}

#[test]
fn the_address_the_host_is_given_builds_both_pages() {
    let url: WebUrl = BASE.parse().unwrap();
    let key: data::WebKey = "00112233445566778899aabb".parse().unwrap();
    assert_eq!(url.game(&key), "https://chess.example.org/chimera/g/00112233445566778899aabb");
    assert_eq!(url.tournament(&key), "https://chess.example.org/chimera/t/00112233445566778899aabb");
}
