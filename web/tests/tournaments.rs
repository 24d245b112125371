//! The tournament page over real HTTP on loopback. Tournaments are played into a real SQLite
//! store as the host's arbiter plays them: each round paired by the host's own pairing engines
//! (`host::pairing`), stored through `data`, its games opened and finished through `data`. The
//! standings are then asked of the host itself (`/tournament standings`, through
//! `Host::handle`) and compared with the page's, line by line.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use async_trait::async_trait;
use data::{
    AsyncStore, Finish, Format, GameResult, NewGame, NewTournament, PairingResult, PlayerId, Tournament,
    TournamentState, WebKey,
};
use host::pairing::{self, knockout_round, knockout_rounds, round_robin_round, round_robin_rounds, swiss_round};
use host::{Command, Message, PlaceError, PlaceKind, Places, Request, TournamentCommand, User};
use rules::Variant;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use common::{get, read_until};

/// A served store, and the host over the same database.
struct Site {
    dir: tempfile::TempDir,
    store: AsyncStore,
    web: web::Web,
    server: web::Server,
}

impl Site {
    async fn open() -> Site {
        let dir = tempfile::tempdir().unwrap();
        let store = AsyncStore::open(dir.path().join("chimera.db")).await.unwrap();
        let settings = web::Settings { poll_every: Duration::from_millis(20), ..web::Settings::default() };
        let web = web::Web::new(store.clone(), settings);
        let server = web::start("127.0.0.1:0".parse().unwrap(), web.clone()).await.unwrap();
        Site { dir, store, web, server }
    }

    fn addr(&self) -> SocketAddr {
        self.server.addr
    }

    /// The host on the same database, as the Discord adapter opens it.
    async fn host(&self) -> host::Host {
        let mut settings = host::Settings::new(self.dir.path().join("chimera.db"), "discord");
        settings.engine_threads = 0;
        host::Host::open(settings).await.unwrap()
    }

    /// What `/tournament standings id:N` says in the tournament's place.
    async fn chat_standings(&self, t: &Tournament) -> String {
        let request = Request {
            platform: "discord".into(),
            server: Some(t.server.clone()),
            channel: t.channel.clone(),
            user: User { id: "someone".into(), name: "someone".into() },
            manager: false,
            place: PlaceKind::Shared,
            request_id: "standings-1".into(),
            command: Command::Tournament(TournamentCommand::Standings { id: Some(t.id) }),
        };
        let reply = self.host().await.handle(request, &Nowhere).await;
        assert!(!reply.is_error(), "{:?}", reply.messages.first().map(|m| &m.text));
        reply.messages.iter().map(|m| m.text.as_str()).collect::<Vec<_>>().join("\n")
    }

    /// Plays a whole tournament of `format` between `names` (start ranks in this order) in the
    /// place `discord`/`guild`: each round paired by the host's engine, each game finished with
    /// `decide(round, board)`. `stop_after` leaves it running after that many rounds.
    async fn play(
        &self,
        name: &str,
        format: Format,
        names: &[&str],
        swiss_rounds: u32,
        stop_after: Option<u32>,
        decide: fn(u32, u32) -> GameResult,
    ) -> Tournament {
        let name = name.to_string();
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        self.store
            .write(move |tx| {
                let mut ids: Vec<PlayerId> = Vec::new();
                for (i, n) in names.iter().enumerate() {
                    ids.push(tx.upsert_player("discord", &format!("u{}", i + 1), n, 0)?.id);
                }
                let t = tx.create_tournament(
                    &NewTournament {
                        platform: "discord".into(),
                        server: "guild".into(),
                        channel: "general".into(),
                        organiser: ids[0],
                        name: name.clone(),
                        variant: "chess".into(),
                        format,
                        rounds: (format == Format::Swiss).then_some(swiss_rounds),
                        time_control: None,
                        rated: false,
                        starts_at: 0,
                        double: false,
                    },
                    1,
                )?;
                for &id in &ids {
                    tx.join_tournament(t.id, id, 2)?;
                }
                let rounds = match format {
                    Format::Swiss => swiss_rounds,
                    Format::RoundRobin => round_robin_rounds(ids.len(), false),
                    Format::Knockout => knockout_rounds(ids.len()),
                };
                tx.set_tournament_state(t.id, TournamentState::Running, Some(rounds), 3)?;
                let mut field = Vec::new();
                for (i, &id) in ids.iter().enumerate() {
                    let rating = 2000 - 10 * i as i64;
                    tx.set_start_rating(t.id, id, rating)?;
                    field.push(pairing::Player { id, rating: rating as f64, active: true });
                }
                for number in 1..=stop_after.unwrap_or(rounds).min(rounds) {
                    let played = tx.rounds(t.id)?;
                    let pairings = match format {
                        Format::Swiss => swiss_round(&field, &played),
                        Format::RoundRobin => round_robin_round(&field, number, false),
                        Format::Knockout => knockout_round(&field, &played),
                    }
                    .expect("the engine pairs the round");
                    let round = tx.add_round(t.id, number, &pairings, 10 * i64::from(number))?;
                    for p in &round.pairings {
                        let (Some(black), None) = (p.black, p.result) else { continue };
                        let new = NewGame {
                            platform: "discord".into(),
                            server: Some("guild".into()),
                            channel: format!("general-{number}-{}", p.board),
                            variant: "chess".into(),
                            white: p.white,
                            black,
                            start_fen: Variant::Chess.start_fen().into(),
                            time_control: None,
                            time_odds: None,
                            deadline: None,
                            rated: false,
                        };
                        let game = tx.create_pairing_game(p.id, &new, 10 * i64::from(number))?;
                        let finish =
                            Finish { result: decide(number, p.board), reason: "resignation".into(), ratings: vec![] };
                        tx.finish_game(game.id, &finish, 10 * i64::from(number) + 1)?;
                    }
                    tx.finish_round(round.id, 10 * i64::from(number) + 2)?;
                }
                if stop_after.is_none() {
                    tx.set_tournament_state(t.id, TournamentState::Finished, None, 1_000)?;
                }
                tx.tournament(t.id)
            })
            .await
            .unwrap()
    }

    /// Every game key of the tournament's pairings.
    async fn game_keys(&self, t: &Tournament) -> Vec<WebKey> {
        let id = t.id;
        self.store
            .read(move |tx| {
                let mut keys = Vec::new();
                for round in tx.rounds(id)? {
                    for p in round.pairings {
                        if let Some(g) = p.game {
                            keys.push(tx.game(g)?.web_key);
                        }
                    }
                }
                Ok(keys)
            })
            .await
            .unwrap()
    }
}

/// The host needs places to open games in and to post to; these tests open none.
struct Nowhere;

#[async_trait]
impl Places for Nowhere {
    async fn open_place(&self, _: &str, _: &str) -> Result<String, PlaceError> {
        Err(PlaceError::gone("no places in this test"))
    }

    async fn post(&self, _: &Message) -> Result<(), PlaceError> {
        Ok(())
    }
}

/// The text of every cell of each row of the first `<table class="{class}">` in `html`, tags
/// taken out and the few entities the pages use read back.
fn table(html: &str, class: &str) -> Vec<Vec<String>> {
    let start = html.find(&format!("<table class=\"{class}\"")).unwrap_or_else(|| panic!("no {class} table"));
    let rest = &html[start..];
    let body = &rest[rest.find("<tbody>").unwrap()..rest.find("</table>").unwrap()];
    body.split("<tr>")
        .skip(1)
        .map(|row| {
            row.split("<td")
                .skip(1)
                .map(|cell| {
                    let cell = &cell[cell.find('>').unwrap() + 1..cell.find("</td>").unwrap()];
                    let mut text = String::new();
                    let mut in_tag = false;
                    for c in cell.chars() {
                        match c {
                            '<' => in_tag = true,
                            '>' => in_tag = false,
                            c if !in_tag => text.push(c),
                            _ => {}
                        }
                    }
                    text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&")
                })
                .collect()
        })
        .collect()
}

/// The rows of the chat's standings table (inside its code block), header left out.
fn chat_rows(text: &str) -> Vec<Vec<String>> {
    let block = text.split("```").nth(1).expect("a table in a code block");
    block
        .lines()
        .filter(|l| !l.trim().is_empty())
        .skip(1)
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

/// Results that give draws and wins both ways.
fn mixed(round: u32, board: u32) -> GameResult {
    match (round + board) % 3 {
        0 => GameResult::WhiteWins,
        1 => GameResult::Draw,
        _ => GameResult::BlackWins,
    }
}

fn white_wins(_: u32, _: u32) -> GameResult {
    GameResult::WhiteWins
}

fn black_wins(_: u32, _: u32) -> GameResult {
    GameResult::BlackWins
}

/// Checks that the page's standings are the chat's, line by line, and returns the page.
async fn standings_agree(site: &Site, t: &Tournament) -> String {
    let page = get(site.addr(), &format!("/t/{}", t.web_key)).await;
    assert_eq!(page.status, 200);
    let html = page.text();
    let web = table(&html, "standings");
    let chat = chat_rows(&site.chat_standings(t).await);
    assert!(!chat.is_empty());
    assert_eq!(web, chat, "the page's standings are the chat's, in order and value");
    html
}

#[tokio::test]
async fn a_round_robin_page_ranks_as_the_chat_does_with_a_crosstable_and_every_game_linked() {
    let site = Site::open().await;
    let t =
        site.play("Club round robin", Format::RoundRobin, &["ann", "bob", "cat", "dan", "eve"], 0, None, mixed).await;
    let html = standings_agree(&site, &t).await;
    for text in ["Club round robin", "Chess", "round robin", "Finished: ", "Crosstable", "Round 5"] {
        assert!(html.contains(text), "{text} is missing");
    }
    assert!(!html.contains("Bracket"));
    // Five players: each meets the four others once; the diagonal is empty.
    let cross = table(&html, "crosstable");
    assert_eq!(cross.len(), 5);
    for (i, row) in cross.iter().enumerate() {
        // #, name, five cells, points.
        assert_eq!(row.len(), 8, "{row:?}");
        assert_eq!(row[2 + i], "", "the diagonal");
        let results: Vec<&String> = row[2..7].iter().enumerate().filter(|&(j, _)| j != i).map(|(_, c)| c).collect();
        assert!(results.iter().all(|c| ["1", "½", "0"].contains(&c.as_str())), "{row:?}");
        // The row's points are the sum of its cells.
        let sum: f64 = results
            .iter()
            .map(|c| {
                if *c == "1" {
                    1.0
                } else if *c == "½" {
                    0.5
                } else {
                    0.0
                }
            })
            .sum();
        assert_eq!(host::export::points_text(sum), row[7], "{row:?}");
        // Each pair's two cells agree.
        for (j, other) in cross.iter().enumerate().filter(|&(j, _)| j != i) {
            let expected = match row[2 + j].as_str() {
                "1" => "0",
                "0" => "1",
                _ => "½",
            };
            assert_eq!(other[2 + i], expected, "{} v {}", row[1], other[1]);
        }
    }
    // Every game is linked by its key, from the rounds and from the crosstable.
    let keys = site.game_keys(&t).await;
    assert_eq!(keys.len(), 10);
    for key in keys {
        assert_eq!(html.matches(&format!("href=\"/g/{key}\"")).count(), 3, "{key}: a round and two cells");
    }
}

#[tokio::test]
async fn a_swiss_page_ranks_as_the_chat_does_byes_included() {
    let site = Site::open().await;
    let names = ["ann", "bob", "cat", "dan", "eve", "fay", "gus"];
    let t = site.play("Friday Swiss", Format::Swiss, &names, 4, None, mixed).await;
    let html = standings_agree(&site, &t).await;
    assert!(html.contains("bye (1)"), "seven players: a bye each round");
    assert!(!html.contains("Crosstable") && !html.contains("Bracket"));
    assert_eq!(table(&html, "standings").len(), 7);
}

#[tokio::test]
async fn a_running_tournament_ranks_as_the_chat_does_and_says_so() {
    let site = Site::open().await;
    let t = site.play("Midway", Format::Swiss, &["ann", "bob", "cat", "dan"], 3, Some(1), mixed).await;
    let html = standings_agree(&site, &t).await;
    assert!(html.contains("Running: round 1 of 3."), "{html}");
    // A running tournament's page follows it: the script and the live address.
    assert!(html.contains(&format!("data-live=\"/t/{}/live\"", t.web_key)));
    assert!(html.contains("<script src=\"/assets/tournament."));
}

#[tokio::test]
async fn a_knockout_page_draws_its_bracket_with_byes_and_the_winner() {
    let site = Site::open().await;
    // Six players in an eight-slot bracket: the top two seeds get byes; White always wins, so
    // the better seed goes through and ann wins.
    let names = ["ann", "bob", "cat", "dan", "eve", "fay"];
    let t = site.play("Cup", Format::Knockout, &names, 0, None, white_wins).await;
    let html = standings_agree(&site, &t).await;
    assert!(html.contains("Bracket") && !html.contains("Crosstable"));
    let bracket = &html[html.find("class=\"bracket\"").unwrap()..html.find("<h2>Rounds</h2>").unwrap()];
    let rounds: Vec<&str> = bracket.split("<section class=\"bracket-round\">").skip(1).collect();
    assert_eq!(rounds.len(), 3);
    assert!(rounds[0].starts_with("<h3>Quarter-finals</h3>"));
    assert!(rounds[1].starts_with("<h3>Semi-finals</h3>"));
    assert!(rounds[2].starts_with("<h3>Final</h3>"));
    assert_eq!(rounds[0].matches("class=\"match\"").count(), 4);
    assert_eq!(rounds[0].matches(">bye<").count(), 2);
    assert_eq!(rounds[1].matches("class=\"match\"").count(), 2);
    assert_eq!(rounds[2].matches("class=\"match\"").count(), 1);
    assert!(rounds[2].contains("<div class=\"entry winner\">ann</div>"), "{}", rounds[2]);
    assert!(html.contains("Finished: ann wins."));
    // Black wins every game instead: the lower seeds go through.
    let upset = site.play("Upsets", Format::Knockout, &["p1", "p2", "p3", "p4"], 0, None, black_wins).await;
    let html = get(site.addr(), &format!("/t/{}", upset.web_key)).await.text();
    // Round 1: 1 v 4, 2 v 3; black (4, 3) win; the final 4 v 3 is won by Black.
    assert!(html.contains("Finished: "), "{html}");
    let winner = html.split("Finished: ").nth(1).unwrap().split(" wins.").next().unwrap();
    assert!(["p3", "p4"].contains(&winner), "{winner}");
}

#[tokio::test]
async fn names_with_markup_are_shown_as_text() {
    let site = Site::open().await;
    let evil = "<script>alert(1)</script>";
    let t = site.play(evil, Format::RoundRobin, &[evil, "bob\"><img src=x>", "cat"], 0, None, mixed).await;
    let html = get(site.addr(), &format!("/t/{}", t.web_key)).await.text();
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!html.contains("<script>alert(1)"));
    assert!(!html.contains("<img src=x"));
    // A finished tournament loads no script at all.
    assert_eq!(html.matches("<script").count(), 0, "{html}");
}

#[tokio::test]
async fn an_unknown_a_malformed_and_a_game_key_get_the_same_404_as_a_game() {
    let site = Site::open().await;
    let t = site.play("Real", Format::RoundRobin, &["ann", "bob"], 0, None, mixed).await;
    let missing = get(site.addr(), &format!("/g/{}", WebKey::random())).await;
    assert_eq!(missing.status, 404);
    let game = site.game_keys(&t).await.remove(0);
    let key = t.web_key.to_string();
    for path in [
        format!("/t/{}", WebKey::random()),
        format!("/t/{game}"),
        format!("/t/{}/live", WebKey::random()),
        format!("/t/{}", key.to_ascii_uppercase()),
        format!("/t/{key}0"),
        format!("/t/{}", t.id),
        "/t/%ZZ".to_string(),
        format!("/t/{key}/nothing"),
    ] {
        let response = get(site.addr(), &path).await;
        assert_eq!(response.status, 404, "{path}");
        assert_eq!(response.body, missing.body, "{path}");
    }
    assert_eq!(get(site.addr(), &format!("/t/{key}")).await.status, 200);
}

#[tokio::test]
async fn the_live_stream_delivers_a_result_and_its_poller_stops_after() {
    let site = Site::open().await;
    let t = site.play("Live", Format::RoundRobin, &["ann", "bob", "cat", "dan"], 0, Some(1), mixed).await;
    // Round 2 is paired and its games open, with no result yet.
    let id = t.id;
    let pairing = site
        .store
        .write(move |tx| {
            let field: Vec<pairing::Player> = tx
                .entrants(id)?
                .iter()
                .map(|e| pairing::Player { id: e.player, rating: e.start_rating.unwrap() as f64, active: true })
                .collect();
            let pairings = round_robin_round(&field, 2, false).unwrap();
            let round = tx.add_round(id, 2, &pairings, 100)?;
            Ok(round.pairings[0].clone())
        })
        .await
        .unwrap();
    let mut stream = TcpStream::connect(site.addr()).await.unwrap();
    let request = format!("GET /t/{}/live HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n", t.web_key);
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    let text = read_until(&mut stream, &mut raw, "Round 2 (playing)").await;
    assert!(text.contains(">playing</td>"), "{text}");
    assert_eq!(site.web.watched_tournaments(), 1);

    site.store
        .write(move |tx| tx.set_pairing_result(pairing.id, Some(PairingResult::WhiteWinsByForfeit)))
        .await
        .unwrap();
    read_until(&mut stream, &mut raw, "1-0 (forfeit)").await;

    drop(stream);
    let mut waited = 0;
    while site.web.watched_tournaments() > 0 {
        assert!(waited < 3_000, "the poller still runs with no viewer");
        tokio::time::sleep(Duration::from_millis(10)).await;
        waited += 1;
    }
}
