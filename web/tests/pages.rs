//! The pages over real HTTP on loopback, served from a real SQLite store whose games are written
//! through `data`, as the host writes them.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use common::{get, head, read_until};

use data::{
    AnalysedPly, Analysis, AsyncStore, ClockKind, Eval, Finish, Game, GameResult, Judge, Judgement, NewGame, NewMove,
    TimeControl, WebKey,
};
use rules::{Position, Variant};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

fn now() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis() as i64
}

/// A served store holding one chess game.
struct Served {
    _dir: tempfile::TempDir,
    store: AsyncStore,
    web: web::Web,
    server: web::Server,
    game: Game,
}

impl Served {
    /// A game between `white` and `black` with `sans` played, served on a free loopback port.
    async fn new(white: &str, black: &str, sans: &[&str]) -> Served {
        let dir = tempfile::tempdir().unwrap();
        let store = AsyncStore::open(dir.path().join("chimera.db")).await.unwrap();
        let (white, black) = (white.to_string(), black.to_string());
        let game = store
            .write(move |tx| {
                let w = tx.upsert_player("discord", "1", &white, 0)?.id;
                let b = tx.upsert_player("discord", "2", &black, 0)?.id;
                let new = NewGame {
                    platform: "discord".into(),
                    server: Some("guild".into()),
                    channel: "c1".into(),
                    variant: "chess".into(),
                    white: w,
                    black: b,
                    start_fen: Variant::Chess.start_fen().into(),
                    time_control: Some(TimeControl { kind: ClockKind::Live, base_ms: 600_000, increment_ms: 5_000 }),
                    time_odds: None,
                    deadline: Some(now() + 600_000),
                    rated: true,
                };
                tx.create_game(&new, now())
            })
            .await
            .unwrap();
        let settings = web::Settings { poll_every: Duration::from_millis(20), ..web::Settings::default() };
        let web = web::Web::new(store.clone(), settings);
        let server = web::start("127.0.0.1:0".parse().unwrap(), web.clone()).await.unwrap();
        let served = Served { _dir: dir, store, web, server, game };
        for san in sans {
            served.play(san).await;
        }
        served
    }

    fn addr(&self) -> SocketAddr {
        self.server.addr
    }

    fn page(&self) -> String {
        format!("/g/{}", self.game.web_key)
    }

    /// Plays `san` in the game, through the store, as the host would store it.
    async fn play(&self, san: &str) {
        let id = self.game.id;
        let san = san.to_string();
        self.store
            .write(move |tx| {
                let record = tx.game_record(id)?;
                let position = Position::from_fen(Variant::Chess, record.fen()).unwrap();
                let m = position.parse_move(&san).unwrap();
                let mut after = position.clone();
                after.play_unchecked(&m);
                let new = NewMove {
                    expected_ply: record.ply(),
                    coord: position.coord(&m),
                    san: position.san(&m),
                    fen_after: after.fen(),
                    time_used_ms: 1_000,
                    request_id: format!("r{}", record.ply()),
                    deadline: Some(now() + 600_000),
                    finish: None,
                };
                tx.append_move(id, &new, now())
            })
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn an_analysed_game_shows_its_graph_and_its_marked_moves() {
    let served = Served::new("Ann", "Bob", &["f3", "e5", "g4", "Qh4#"]).await;
    let plain = get(served.addr(), &served.page()).await.text();
    assert!(!plain.contains("class=\"graph\""), "no graph before /analyse");
    let id = served.game.id;
    let ply = |eval, judgement, better: Option<&str>| AnalysedPly { eval, judgement, better: better.map(Into::into) };
    let analysis = Analysis {
        game: id,
        plies: vec![
            ply(Eval::Centipawns(20), None, None),
            ply(Eval::Centipawns(-90), Some(Judgement::Inaccuracy), Some("e4")),
            ply(Eval::Centipawns(-80), None, None),
            ply(Eval::Mate { winner: data::Color::Black, moves: 1 }, Some(Judgement::Blunder), Some("Nc3")),
            ply(Eval::Mate { winner: data::Color::Black, moves: 0 }, None, None),
        ],
        accuracy: [Some(12.0), Some(98.0)],
        // The name an outside engine gave, markup and all: the page shows it as text.
        judge: Judge::Outside { name: "Stockfish <b>16</b>".into() },
        analysed_at: now(),
    };
    // As the host has it: only a finished game is analysed.
    served
        .store
        .write(move |tx| {
            let finish = Finish { result: GameResult::BlackWins, reason: "checkmate".into(), ratings: vec![] };
            tx.finish_game(id, &finish, now())?;
            tx.save_analysis(&analysis)
        })
        .await
        .unwrap();
    let html = get(served.addr(), &served.page()).await.text();
    assert!(html.contains("<figure class=\"graph\">"), "{html}");
    assert!(html.contains("Accuracy: White 12%, Black 98%"), "{html}");
    assert!(html.contains("Judged by Stockfish &lt;b&gt;16&lt;/b&gt;."), "the judge, escaped: {html}");
    assert!(html.contains(">f3<span class=\"mark inaccuracy\" title=\"inaccuracy (better: e4)\">?!</span>"), "{html}");
    assert!(html.contains(">g4<span class=\"mark blunder\" title=\"blunder (better: Nc3)\">??</span>"), "{html}");
    assert_eq!(html.matches("<circle ").count(), 2, "one dot per marked move");
    assert!(html.contains("<a href=\"?ply=3\"><circle class=\"blunder\""), "a dot links to its position");
}

#[tokio::test]
async fn the_game_page_shows_the_players_their_ratings_the_moves_and_the_position_as_text() {
    let served = Served::new("Ann", "Bob", &["e4", "e5", "Nf3"]).await;
    let page = get(served.addr(), &served.page()).await;
    assert_eq!(page.status, 200);
    assert_eq!(page.header("content-type"), Some("text/html; charset=utf-8"));
    let html = page.text();
    for text in ["Ann", "Bob", "1500?", ">e4<", ">e5<", ">Nf3<", "Chess", "10+5"] {
        assert!(html.contains(text), "{text} is missing from the page");
    }
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
    assert!(html.contains(&format!("Black to move. FEN: {fen}")), "the text alternative of the board");
    // The board itself: 64 squares, 32 pieces drawn from the project's art.
    assert_eq!(html.matches("class=\"sq ").count(), 64);
    assert_eq!(html.matches("<img src=\"/assets/").count(), 32);
}

#[tokio::test]
async fn an_earlier_position_is_shown_by_its_address_without_script() {
    let served = Served::new("Ann", "Bob", &["e4", "e5", "Nf3"]).await;
    let html = get(served.addr(), &format!("{}?ply=1", served.page())).await.text();
    assert!(html.contains("Black to move. FEN: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
    let html = get(served.addr(), &format!("{}?ply=999&flip=1", served.page())).await.text();
    assert!(html.contains("Black to move. FEN: rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2"), "past the end is the last ply");
}

#[tokio::test]
async fn no_key_a_malformed_key_and_an_unknown_key_get_the_same_404() {
    let served = Served::new("Ann", "Bob", &[]).await;
    let missing = get(served.addr(), &format!("/g/{}", WebKey::random())).await;
    assert_eq!(missing.status, 404);
    let key = served.game.web_key.to_string();
    for path in [
        "/g/1".to_string(),
        format!("/g/{}", key.to_ascii_uppercase()),
        format!("/g/{}0", key),
        "/g/%ZZ".to_string(),
        "/g/..%2F..%2Fetc%2Fpasswd".to_string(),
        format!("/g/{}/pgn", WebKey::random()),
        format!("/g/{}/gif", WebKey::random()),
        format!("/g/{}/live", WebKey::random()),
        format!("/g/{key}/nothing"),
        "/".to_string(),
        "/assets/style.css".to_string(),
        "/t/1".to_string(),
    ] {
        let response = get(served.addr(), &path).await;
        assert_eq!(response.status, 404, "{path}");
        assert_eq!(response.body, missing.body, "{path} answers as a game that does not exist");
    }
}

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let served = Served::new("Ann", "Bob", &["e4"]).await;
    let html = get(served.addr(), &served.page()).await.text();
    let style = html.split("href=\"/assets/style.").nth(1).and_then(|s| s.split('"').next()).unwrap();
    let style_path = format!("/assets/style.{style}");
    for path in [served.page(), format!("{}/pgn", served.page()), "/nowhere".into(), style_path.clone()] {
        let response = get(served.addr(), &path).await;
        let csp = response.header("content-security-policy").unwrap_or_else(|| panic!("{path}: no CSP"));
        for directive in ["default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"] {
            assert!(csp.contains(directive), "{path}: {csp}");
        }
        assert_eq!(response.header("x-content-type-options"), Some("nosniff"), "{path}");
        assert_eq!(response.header("referrer-policy"), Some("no-referrer"), "{path}");
    }
    let style = get(served.addr(), &style_path).await;
    assert_eq!(style.status, 200);
    assert_eq!(style.header("content-type"), Some("text/css; charset=utf-8"));
    assert!(style.header("cache-control").unwrap().contains("immutable"));
}

#[tokio::test]
async fn a_name_with_markup_is_shown_as_text() {
    let served = Served::new("<script>alert(1)</script>", "Bob\"><img src=x onerror=alert(2)>", &["d4"]).await;
    let html = get(served.addr(), &served.page()).await.text();
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!html.contains("<script>alert(1)"));
    assert!(!html.contains("<img src=x"));
    // The only scripts are ours: the file and the data block.
    assert_eq!(html.matches("<script").count(), 2, "{html}");
}

#[tokio::test]
async fn the_live_stream_delivers_a_move_appended_through_the_store_and_its_poller_stops_after() {
    let served = Served::new("Ann", "Bob", &["e4"]).await;
    let mut stream = TcpStream::connect(served.addr()).await.unwrap();
    let request = format!("GET {}/live HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n", served.page());
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    read_until(&mut stream, &mut raw, "\"san\":\"e4\"").await;
    let (status, headers, _) = head(&raw).unwrap();
    assert_eq!(status, 200);
    assert!(headers.iter().any(|(n, v)| n == "content-type" && v == "text/event-stream"));
    assert_eq!(served.web.watched_games(), 1);

    served.play("c5").await;
    let text = read_until(&mut stream, &mut raw, "\"san\":\"c5\"").await;
    let event = text.split("\n\n").find(|e| e.contains("\"san\":\"c5\"")).unwrap();
    let data = event.lines().find_map(|l| l.strip_prefix("data: ")).expect("one data line");
    let snapshot: serde_json::Value = serde_json::from_str(data).unwrap();
    assert_eq!(snapshot["moves"].as_array().unwrap().len(), 2);
    assert_eq!(snapshot["moves"][1]["fen"], "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    assert_eq!(snapshot["clock"]["running"], "white");

    // Nobody watches any more: the poller stops.
    drop(stream);
    let mut waited = 0;
    while served.web.watched_games() > 0 {
        assert!(waited < 3_000, "the poller still runs with no viewer");
        tokio::time::sleep(Duration::from_millis(10)).await;
        waited += 1;
    }
}

#[tokio::test]
async fn the_pgn_reads_back_and_the_gif_is_a_gif() {
    let served = Served::new("Ann", "Bob \"the rook\"", &["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]).await;
    let pgn = get(served.addr(), &format!("{}/pgn", served.page())).await;
    assert_eq!(pgn.status, 200);
    assert_eq!(pgn.header("content-type"), Some("application/x-chess-pgn; charset=utf-8"));
    assert!(pgn.header("content-disposition").unwrap().starts_with("attachment"));
    let read = rules::pgn::read(Variant::Chess, &pgn.text()).unwrap();
    assert_eq!(read.game.moves().len(), 7);
    assert_eq!(read.tags.get("White"), Some("Ann"));
    assert_eq!(read.tags.get("Black"), Some("Bob \"the rook\""));

    let gif = get(served.addr(), &format!("{}/gif", served.page())).await;
    assert_eq!(gif.status, 200);
    assert_eq!(gif.header("content-type"), Some("image/gif"));
    assert_eq!(&gif.body[..6], b"GIF89a");
}
