//! The listing pages over real HTTP on loopback, over a real SQLite store written through
//! `data` as the host writes it: served only for places whose listing is on, and showing only
//! what was played in their own place.

mod common;

use std::net::SocketAddr;

use data::{
    AsyncStore, Finish, Format, Game, GameResult, Glicko, NewGame, NewTournament, PlayerId, RatingUpdate, WebKey,
};
use rules::Variant;

use common::get;

/// A Matrix room id, as the listing of a room names its place.
const ROOM: &str = "!abc:example.org";
/// The same, percent-encoded as links write it.
const ROOM_ENCODED: &str = "%21abc%3Aexample.org";

struct Site {
    _dir: tempfile::TempDir,
    store: AsyncStore,
    server: web::Server,
}

impl Site {
    async fn open() -> Site {
        let dir = tempfile::tempdir().unwrap();
        let store = AsyncStore::open(dir.path().join("chimera.db")).await.unwrap();
        let web = web::Web::new(store.clone(), web::Settings::default());
        let server = web::start("127.0.0.1:0".parse().unwrap(), web).await.unwrap();
        Site { _dir: dir, store, server }
    }

    fn addr(&self) -> SocketAddr {
        self.server.addr
    }

    async fn player(&self, platform: &str, user: &str, name: &str) -> PlayerId {
        let (platform, user, name) = (platform.to_string(), user.to_string(), name.to_string());
        self.store.write(move |tx| Ok(tx.upsert_player(&platform, &user, &name, 0)?.id)).await.unwrap()
    }

    /// A rated chess game in `server` of `platform`, won by White and rated as the host rates it
    /// (both ratings written with the result).
    async fn game(&self, platform: &str, server: &str, channel: &str, white: PlayerId, black: PlayerId) -> Game {
        let (platform, server, channel) = (platform.to_string(), server.to_string(), channel.to_string());
        self.store
            .write(move |tx| {
                let new = NewGame {
                    platform: platform.clone(),
                    server: Some(server.clone()),
                    channel: channel.clone(),
                    variant: "chess".into(),
                    white,
                    black,
                    start_fen: Variant::Chess.start_fen().into(),
                    time_control: None,
                    time_odds: None,
                    deadline: None,
                    rated: true,
                };
                let game = tx.create_game(&new, 1)?;
                let rating = |player, won: bool| -> data::Result<RatingUpdate> {
                    let before = tx.rating(player, "chess")?;
                    let old = before.as_ref().map_or(1500.0, |r| r.glicko.rating);
                    Ok(RatingUpdate {
                        player,
                        variant: "chess".into(),
                        games_before: before.map_or(0, |r| r.games),
                        glicko: Glicko {
                            rating: old + if won { 100.0 } else { -100.0 },
                            deviation: 80.0,
                            volatility: 0.06,
                        },
                    })
                };
                let finish = Finish {
                    result: GameResult::WhiteWins,
                    reason: "resignation".into(),
                    ratings: vec![rating(white, true)?, rating(black, false)?],
                };
                tx.finish_game(game.id, &finish, 2)
            })
            .await
            .unwrap()
    }

    async fn listing(&self, platform: &str, server: &str, on: bool) {
        let (platform, server) = (platform.to_string(), server.to_string());
        self.store.write(move |tx| tx.set_web_listing(&platform, &server, on, 3)).await.unwrap()
    }

    async fn tournament(&self, platform: &str, server: &str, organiser: PlayerId, name: &str) -> data::Tournament {
        let new = NewTournament {
            platform: platform.into(),
            server: server.into(),
            channel: "general".into(),
            organiser,
            name: name.into(),
            variant: "golem".into(),
            format: Format::Swiss,
            rounds: Some(3),
            time_control: None,
            rated: true,
            starts_at: 0,
            double: false,
        };
        self.store.write(move |tx| tx.create_tournament(&new, 4)).await.unwrap()
    }
}

#[tokio::test]
async fn listings_are_the_plain_404_until_the_place_turns_them_on() {
    let site = Site::open().await;
    let ann = site.player("discord", "111", "ann").await;
    let bob = site.player("discord", "222", "bob").await;
    site.game("discord", "guild", "c1", ann, bob).await;
    let missing = get(site.addr(), &format!("/g/{}", WebKey::random())).await;
    assert_eq!(missing.status, 404);
    let pages = ["/l/discord/guild", "/l/discord/guild/chess", "/l/discord/guild/p/111"];
    for path in pages {
        let response = get(site.addr(), path).await;
        assert_eq!(response.status, 404, "{path}");
        assert_eq!(response.body, missing.body, "{path} answers as a game that does not exist");
    }
    site.listing("discord", "guild", true).await;
    for path in pages {
        assert_eq!(get(site.addr(), path).await.status, 200, "{path}");
    }
    // Still the plain 404: another place, a variant by anything but its id, a player who never
    // played here or does not exist, a user id of another platform.
    for path in [
        "/l/discord/other",
        "/l/matrix/guild",
        "/l/discord/guild/queen",
        "/l/discord/guild/Golem%20Chess",
        "/l/discord/guild/p/333",
        "/l/discord/guild/p/%ZZ",
        "/l/discord/guild/p/111/more",
        "/l/discord",
    ] {
        let response = get(site.addr(), path).await;
        assert_eq!(response.status, 404, "{path}");
        assert_eq!(response.body, missing.body, "{path}");
    }
    // Turned off again: gone again.
    site.listing("discord", "guild", false).await;
    for path in pages {
        assert_eq!(get(site.addr(), path).await.body, missing.body, "{path}");
    }
}

#[tokio::test]
async fn a_player_page_shows_only_the_games_of_its_place() {
    let site = Site::open().await;
    let ann = site.player("discord", "111", "ann").await;
    let bob = site.player("discord", "222", "bob").await;
    let here = site.game("discord", "listed", "c1", ann, bob).await;
    let unlisted = site.game("discord", "unlisted", "c1", bob, ann).await;
    let also_listed = site.game("discord", "elsewhere", "c1", ann, bob).await;
    site.listing("discord", "listed", true).await;
    site.listing("discord", "elsewhere", true).await;

    let html = get(site.addr(), "/l/discord/listed/p/111").await.text();
    assert!(html.contains(&format!("href=\"/g/{}\"", here.web_key)), "the game played here");
    assert!(html.contains("won 1-0"));
    for other in [&unlisted, &also_listed] {
        assert!(!html.contains(other.web_key.as_str()), "a game of another place is not listed here");
    }
    // The unlisted place's game is on no listing page at all.
    for path in [
        "/l/discord/listed",
        "/l/discord/listed/chess",
        "/l/discord/listed/p/111",
        "/l/discord/listed/p/222",
        "/l/discord/elsewhere",
        "/l/discord/elsewhere/chess",
        "/l/discord/elsewhere/p/111",
        "/l/discord/elsewhere/p/222",
    ] {
        let page = get(site.addr(), path).await;
        assert_eq!(page.status, 200, "{path}");
        assert!(!page.text().contains(unlisted.web_key.as_str()), "{path}");
    }
    assert_eq!(get(site.addr(), "/l/discord/unlisted/p/111").await.status, 404);
    // Ratings: ann won twice and lost once on the platform (ratings are per platform).
    assert!(html.contains("1600"), "{html}");
}

#[tokio::test]
async fn the_leaderboard_ranks_the_players_of_its_place() {
    let site = Site::open().await;
    let ann = site.player("discord", "111", "ann").await;
    let bob = site.player("discord", "222", "bob").await;
    let cat = site.player("discord", "333", "cat").await;
    site.game("discord", "guild", "c1", ann, bob).await;
    site.game("discord", "guild", "c2", ann, bob).await;
    // cat plays only elsewhere: not on this place's leaderboard.
    site.game("discord", "other", "c1", cat, bob).await;
    site.listing("discord", "guild", true).await;
    let page = get(site.addr(), "/l/discord/guild/chess").await;
    assert_eq!(page.status, 200);
    let html = page.text();
    let (a, b) = (html.find(">ann</a>").expect("ann"), html.find(">bob</a>").expect("bob"));
    assert!(a < b, "the higher rating first");
    assert!(!html.contains(">cat</a>"));
    assert!(html.contains("href=\"/l/discord/guild/p/111\""));
    // Another variant: nobody yet.
    let golem = get(site.addr(), "/l/discord/guild/golem").await.text();
    assert!(golem.contains("Nobody has finished a game of Golem Chess here yet."));
}

#[tokio::test]
async fn a_matrix_room_is_linked_percent_encoded_and_read_back() {
    let site = Site::open().await;
    let ann = site.player("matrix", "@ann:example.org", "ann").await;
    let bob = site.player("matrix", "@bob:example.org", "bob").await;
    let game = site.game("matrix", ROOM, "$thread", ann, bob).await;
    let t = site.tournament("matrix", ROOM, ann, "Room Swiss").await;
    site.listing("matrix", ROOM, true).await;

    let place = get(site.addr(), &format!("/l/matrix/{ROOM_ENCODED}")).await;
    assert_eq!(place.status, 200);
    let html = place.text();
    assert!(html.contains(&format!("href=\"/t/{}\"", t.web_key)), "the tournament by its key");
    assert!(html.contains(&format!("href=\"/l/matrix/{ROOM_ENCODED}/chess\"")), "{html}");
    assert!(!html.contains(&format!("/t/{}\"", t.id)), "no sequential id");

    let board = get(site.addr(), &format!("/l/matrix/{ROOM_ENCODED}/chess")).await.text();
    let player = format!("/l/matrix/{ROOM_ENCODED}/p/%40ann%3Aexample.org");
    assert!(board.contains(&format!("href=\"{player}\"")), "{board}");
    let page = get(site.addr(), &player).await;
    assert_eq!(page.status, 200);
    assert!(page.text().contains(&format!("href=\"/g/{}\"", game.web_key)));
    // The room's id as typed (`!` and `:` may stand in a path) reads the same.
    assert_eq!(get(site.addr(), &format!("/l/matrix/{ROOM}")).await.status, 200);
    // Another room of the same server is another place.
    assert_eq!(get(site.addr(), "/l/matrix/%21abd%3Aexample.org").await.status, 404);
}

#[tokio::test]
async fn names_with_markup_are_shown_as_text_on_listings() {
    let site = Site::open().await;
    let evil = "<script>alert(1)</script>";
    let ann = site.player("discord", "111", evil).await;
    let bob = site.player("discord", "222", "bob").await;
    site.game("discord", "guild", "c1", ann, bob).await;
    site.tournament("discord", "guild", ann, evil).await;
    site.listing("discord", "guild", true).await;
    for path in ["/l/discord/guild", "/l/discord/guild/chess", "/l/discord/guild/p/111", "/l/discord/guild/p/222"] {
        let html = get(site.addr(), path).await.text();
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "{path}");
        assert!(!html.contains("<script"), "{path}: {html}");
    }
}
