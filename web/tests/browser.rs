//! The pages in a real browser: Debian's `chromium`, driven over WebDriver by `chromedriver`
//! (both installed by `.ci/run`), with fantoccini. The games are played through the host, as
//! every chat adapter plays them, on the store the pages serve.
//!
//! Without chromedriver these tests say so on one line and pass, except under `CI=true`, where
//! they fail (as the PostgreSQL tests do). `CHIMERA_SCREENSHOTS=<dir>` keeps a screenshot of each
//! page at 360 and 1280 px wide there (`docs/gallery` holds the ones committed).

use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::process::{Child, Command as Process, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

use async_trait::async_trait;
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use host::{Command, Host, Mention, Message, PlaceError, PlaceKind, Places, Reply, Request, Settings, User};
use hyper_util::client::legacy::connect::HttpConnector;

/// Where Debian puts them; `CHROMEDRIVER` and `CHROMIUM` say otherwise.
fn tool(variable: &str, default: &str) -> PathBuf {
    std::env::var_os(variable).map(PathBuf::from).unwrap_or_else(|| PathBuf::from(default))
}

/// `chromedriver` on a free loopback port, killed when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Driver {
    /// The driver, or `None` (with the line that says why) where the machine has none and CI is
    /// not asking.
    fn start() -> Option<Driver> {
        let binary = tool("CHROMEDRIVER", "/usr/bin/chromedriver");
        if !binary.exists() {
            let why = format!(
                "{} is missing: install Debian's chromium and chromium-driver (.ci/run does)",
                binary.display()
            );
            assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
            eprintln!("skipped: {why}");
            return None;
        }
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut child = Process::new(&binary)
            .arg(format!("--port={port}"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", binary.display()));
        // It says when it listens; a driver that dies first ends its output instead.
        let said = BufReader::new(child.stdout.take().unwrap())
            .lines()
            .map_while(Result::ok)
            .find(|line| line.contains("started successfully"));
        let driver = Driver { child, port };
        assert!(said.is_some(), "chromedriver stopped before it listened on {port}");
        Some(driver)
    }

    /// A headless chromium whose page is `width` CSS pixels wide: a phone's screen (emulated, as
    /// a window cannot be narrower than 500 px) or a desktop window.
    async fn browser(&self, width: u32) -> Client {
        let mut options = serde_json::json!({
            "binary": tool("CHROMIUM", "/usr/bin/chromium"),
            // As root (CI), chromium runs only without its sandbox.
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900"],
        });
        if width < 500 {
            options["mobileEmulation"] =
                serde_json::json!({ "deviceMetrics": { "width": width, "height": 780, "pixelRatio": 2.0 } });
        }
        let mut caps = serde_json::Map::new();
        caps.insert("goog:chromeOptions".into(), options);
        ClientBuilder::new(HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
            .expect("a chromium session")
    }
}

/// Places that take every announcement (the tests read replies, not announcements) and open a
/// new channel for each game that asks for one (a tournament's).
#[derive(Default)]
struct Quiet {
    opened: AtomicU32,
}

#[async_trait]
impl Places for Quiet {
    async fn open_place(&self, parent_channel: &str, _title: &str) -> Result<String, PlaceError> {
        Ok(format!("{parent_channel}-{}", self.opened.fetch_add(1, Ordering::Relaxed)))
    }

    async fn post(&self, _message: &Message) -> Result<(), PlaceError> {
        Ok(())
    }
}

/// A host on a fresh SQLite store, the pages served over that store on a free loopback port.
struct Club {
    _dir: tempfile::TempDir,
    host: Host,
    pages: web::Web,
    server: web::Server,
    people: Vec<User>,
    requests: AtomicU32,
    places: Quiet,
}

impl Club {
    /// `people` are known by id; each one's name is what the pages must show.
    async fn open(people: &[(&str, &str)]) -> Club {
        let dir = tempfile::tempdir().unwrap();
        let mut settings = Settings::new(dir.path().join("chimera.db"), "discord");
        settings.engine_threads = 1;
        settings.limits.commands = 10_000;
        let host = Host::open(settings).await.unwrap();
        // The pages' own default: the poll interval a deployment runs with.
        let pages = web::Web::new(host.store().clone(), web::Settings::default());
        let server = web::start("127.0.0.1:0".parse().unwrap(), pages.clone()).await.unwrap();
        let people = people.iter().map(|&(id, name)| User { id: id.into(), name: name.into() }).collect();
        Club { _dir: dir, host, pages, server, people, requests: AtomicU32::new(0), places: Quiet::default() }
    }

    fn person(&self, id: &str) -> User {
        self.people.iter().find(|p| p.id == id).unwrap_or_else(|| panic!("who is {id}?")).clone()
    }

    /// `user` types `line` in the server's channel `general`; the host must not refuse it.
    async fn say(&self, user: &str, line: &str) -> Reply {
        self.say_in("general", user, line).await
    }

    /// `user` types `line` in `channel` of the server; the host must not refuse it.
    async fn say_in(&self, channel: &str, user: &str, line: &str) -> Reply {
        let n = self.requests.fetch_add(1, Ordering::Relaxed);
        let typed: Command<Mention> = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
        let command = typed.try_map_users(|m| Ok::<_, ()>(self.person(m.0.trim_start_matches('@')))).unwrap();
        let request = Request {
            platform: "discord".into(),
            server: Some("guild".into()),
            channel: channel.into(),
            user: self.person(user),
            manager: false,
            place: PlaceKind::Shared,
            request_id: format!("request-{n}"),
            command,
        };
        let reply = self.host.handle(request, &self.places).await;
        assert!(!reply.is_error(), "{user}: {line} was refused: {:?}", reply.messages);
        reply
    }

    /// A chess game between `white` and `black` with `sans` played: its page's address.
    async fn game(&self, white: &str, black: &str, sans: &[&str]) -> String {
        self.say(white, &format!("/challenge @{black} variant:chess color:white rated:no time:10+5")).await;
        self.say(black, "/accept").await;
        // Read while the game is under way: the moves may end it.
        let key: String = self
            .host
            .store()
            .read(|tx| Ok(tx.active_game("discord", "general")?.expect("a game").game.web_key.to_string()))
            .await
            .unwrap();
        for (i, san) in sans.iter().enumerate() {
            self.say(if i % 2 == 0 { white } else { black }, &format!("/move {san}")).await;
        }
        self.url(&format!("/g/{key}"))
    }

    /// The games under way, each once: its channel and its players' ids (White, Black).
    async fn active_games(&self) -> Vec<(String, String, String)> {
        let ids: Vec<String> = self.people.iter().map(|p| p.id.clone()).collect();
        self.host
            .store()
            .read(move |tx| {
                let mut games = Vec::new();
                for id in &ids {
                    let Some(player) = tx.find_player("discord", id)? else { continue };
                    games.extend(tx.active_games_of(player.id)?);
                }
                games.sort_by_key(|g| g.id);
                games.dedup_by_key(|g| g.id);
                games
                    .into_iter()
                    .map(|g| Ok((g.channel.clone(), tx.player(g.white)?.user_id, tx.player(g.black)?.user_id)))
                    .collect()
            })
            .await
            .unwrap()
    }

    fn url(&self, path: &str) -> String {
        let addr: SocketAddr = self.server.addr;
        format!("http://{addr}{path}")
    }
}

/// Saves a screenshot of what `browser` shows as `<name>.png` under `CHIMERA_SCREENSHOTS`.
async fn screenshot(browser: &Client, name: &str) {
    let Some(dir) = std::env::var_os("CHIMERA_SCREENSHOTS") else { return };
    let png = browser.screenshot().await.unwrap();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(PathBuf::from(dir).join(format!("{name}.png")), png).unwrap();
}

/// The ply the page marks as current in its move list (`0`: none, the start), read in one
/// script call so that a redraw between finding the link and reading it cannot intervene.
async fn current_ply(browser: &Client) -> String {
    let script = "var a = document.querySelector('#moves a.ply.current'); return a ? a.dataset.ply : '0';";
    let ply = browser.execute(script, vec![]).await.unwrap();
    ply.as_str().unwrap_or_else(|| panic!("not a ply: {ply}")).to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_move_played_in_chat_appears_on_an_open_page_without_a_reload() {
    let Some(driver) = Driver::start() else { return };
    let club = Club::open(&[("alice", "Alice"), ("bob", "Bob")]).await;
    let page = club.game("alice", "bob", &["e4", "e5"]).await;
    let browser = driver.browser(1280).await;
    browser.goto(&page).await.unwrap();
    browser.find(Locator::XPath("//ol[@id='moves']//a[text()='e5']")).await.unwrap();
    // The page follows the game once its event stream is open; the server then watches it.
    browser.wait().for_element(Locator::Css("html[data-live=open]")).await.unwrap();
    assert_eq!(club.pages.watched_games(), 1);

    club.say("alice", "/move Nf3").await;
    // The move reaches the open page by its event stream, without a reload. How fast is the
    // load bench's to measure (`--viewers`, docs/deploy.md), not a test's.
    let shown = browser.wait().for_element(Locator::XPath("//ol[@id='moves']//a[text()='Nf3']")).await;
    assert!(shown.is_ok(), "Nf3 did not appear on the open page: {shown:?}");
    assert_eq!(browser.current_url().await.unwrap().as_str(), page, "no reload, no other address");
    let alt = browser.find(Locator::Id("board-alt")).await.unwrap().text().await.unwrap();
    assert!(alt.starts_with("Black to move. FEN: rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/"), "{alt}");
    screenshot(&browser, "game-1280").await;
    browser.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_arrow_keys_step_through_the_moves() {
    let Some(driver) = Driver::start() else { return };
    let club = Club::open(&[("alice", "Alice"), ("bob", "Bob")]).await;
    let page = club.game("alice", "bob", &["e4", "e5", "Nf3", "Nc6", "Bb5"]).await;
    let browser = driver.browser(360).await;
    browser.goto(&page).await.unwrap();
    assert_eq!(current_ply(&browser).await, "5");
    let body = browser.find(Locator::Css("body")).await.unwrap();

    let steps: [(Key, &str, &str); 5] = [
        (Key::Left, "4", "White to move. FEN: r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
        (Key::Left, "3", "Black to move. FEN: rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"),
        (Key::Right, "4", "White to move. FEN: r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
        (Key::Home, "0", "White to move. FEN: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        (Key::End, "5", "Black to move. FEN: r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"),
    ];
    for (key, ply, alt) in steps {
        body.send_keys(&char::from(key).to_string()).await.unwrap();
        assert_eq!(current_ply(&browser).await, ply, "after {key:?}");
        let label = browser.execute("return document.getElementById('board').getAttribute('aria-label');", vec![]);
        assert_eq!(label.await.unwrap().as_str(), Some(alt), "after {key:?}");
    }
    screenshot(&browser, "game-360").await;
    browser.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_player_named_like_a_script_is_shown_as_text() {
    let Some(driver) = Driver::start() else { return };
    let name = "<script>alert(1)</script>";
    let club = Club::open(&[("mallory", name), ("bob", "Bob")]).await;
    let page = club.game("mallory", "bob", &["d4"]).await;
    let browser = driver.browser(1280).await;
    browser.goto(&page).await.unwrap();
    let shown = browser.find(Locator::Css(".player[data-color=white] .name")).await.unwrap().text().await.unwrap();
    assert_eq!(shown, name);
    let heading = browser.find(Locator::Css("h1")).await.unwrap().text().await.unwrap();
    assert_eq!(heading, format!("{name} vs Bob"));
    // Nothing ran: no alert is open, and the page holds no script element from the name.
    assert!(browser.get_alert_text().await.is_err(), "an alert opened");
    let scripts = browser.find_all(Locator::Css("script")).await.unwrap();
    for script in scripts {
        let text = script.html(true).await.unwrap();
        assert!(!text.contains("alert(1)") || text.contains("\\u003cscript"), "{text}");
    }
    browser.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn an_analysed_game_shows_its_graph_and_marks_and_a_dot_leads_to_its_move() {
    let Some(driver) = Driver::start() else { return };
    let club = Club::open(&[("alice", "Alice"), ("bob", "Bob")]).await;
    let page = club.game("alice", "bob", &["f3", "e5", "g4", "Qh4#"]).await;
    let reply = club.say("alice", "/analyse game:1").await;
    assert!(reply.messages[0].text.contains("Analysis of game 1"), "{:?}", reply.messages[0].text);
    for width in [1280, 360] {
        let browser = driver.browser(width).await;
        browser.goto(&page).await.unwrap();
        let graph = browser.find(Locator::Css("figure.graph svg")).await.unwrap();
        assert!(graph.is_displayed().await.unwrap());
        // g4 let the mate in: a blunder, marked in the list and as a dot.
        let mark = browser.find(Locator::XPath("//ol[@id='moves']//a[@data-ply='3']/span")).await.unwrap();
        assert_eq!(mark.text().await.unwrap(), "??");
        screenshot(&browser, &format!("game-analysed-{width}")).await;
        if width == 1280 {
            browser.find(Locator::Css("figure.graph circle.blunder")).await.unwrap().click().await.unwrap();
            browser.wait().for_url(&format!("{page}?ply=3").parse().unwrap()).await.unwrap();
            assert_eq!(current_ply(&browser).await, "3");
        }
        browser.close().await.unwrap();
    }
}

/// The standings rows as `/tournament standings` writes them: each row's cells, the header left
/// out (the name may hold spaces; the other cells do not).
fn chat_standings(reply: &Reply) -> Vec<Vec<String>> {
    let text: String = reply.messages.iter().map(|m| m.text.as_str()).collect::<Vec<_>>().join("\n");
    let table = text.split("```").nth(1).unwrap_or_else(|| panic!("no standings table: {text}"));
    table
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("Rank"))
        .map(|line| {
            let cells: Vec<&str> = line.split_whitespace().collect();
            let (rank, rest) = cells.split_first().unwrap();
            // The last eight cells are numbers; the name is what lies between.
            let numbers = &rest[rest.len() - 8..];
            let name = rest[..rest.len() - 8].join(" ");
            let mut row = vec![rank.to_string(), name];
            row.extend(numbers.iter().map(|c| c.to_string()));
            row
        })
        .collect()
}

/// The standings table of the tournament page open in `browser`, read in one script call.
async fn page_standings(browser: &Client) -> Vec<Vec<String>> {
    let script = "return Array.from(document.querySelectorAll('table.standings tbody tr'))
        .map(function (tr) { return Array.from(tr.cells).map(function (td) { return td.textContent.trim(); }); });";
    let rows = browser.execute(script, vec![]).await.unwrap();
    serde_json::from_value(rows).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_tournament_page_shows_the_standings_chat_gives_and_follows_the_results() {
    let Some(driver) = Driver::start() else { return };
    let names = [("orga", "Orga"), ("ann", "Ann"), ("bob", "Bob"), ("cat", "Cat"), ("dan", "Dan Smith")];
    let club = Club::open(&names).await;
    club.say("orga", "/tournament create name:\"Club RR\" variant:chess format:round-robin time:3d rated:no").await;
    for player in ["ann", "bob", "cat", "dan"] {
        club.say(player, "/tournament join").await;
    }
    club.say("orga", "/tournament start").await;
    let key = club.host.store().read(|tx| Ok(tx.tournament(1)?.web_key.to_string())).await.unwrap();
    let browser = driver.browser(1280).await;
    browser.goto(&club.url(&format!("/t/{key}"))).await.unwrap();
    assert_eq!(page_standings(&browser).await, chat_standings(&club.say("orga", "/tournament standings").await));

    // Round 1: White resigns on one board, Black on the other.
    let games = club.active_games().await;
    assert_eq!(games.len(), 2, "two boards in round 1 of four players");
    for (i, (channel, white, black)) in games.iter().enumerate() {
        let loser = if i == 0 { white } else { black };
        club.say_in(channel, loser, "/resign confirm:yes").await;
    }
    let chat = chat_standings(&club.say("orga", "/tournament standings").await);
    assert_eq!(chat.len(), 4, "{chat:?}");
    assert!(chat.iter().any(|row| row[2] == "1"), "a winner has a point: {chat:?}");
    // The open page follows without a reload: its standings are replaced whole, so once a
    // point shows, every row is the new one.
    let point = "//table[contains(@class,'standings')]//td[contains(@class,'points')][normalize-space()='1']";
    browser.wait().for_element(Locator::XPath(point)).await.unwrap();
    // The two results are two events: the page may show the first before the second arrives.
    let mut page = page_standings(&browser).await;
    for _ in 0..100 {
        if page == chat {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        page = page_standings(&browser).await;
    }
    assert_eq!(page, chat);
    screenshot(&browser, "tournament-1280").await;
    browser.close().await.unwrap();
    // On a phone's width, the same rows.
    let phone = driver.browser(360).await;
    phone.goto(&club.url(&format!("/t/{key}"))).await.unwrap();
    assert_eq!(page_standings(&phone).await, chat);
    screenshot(&phone, "tournament-360").await;
    phone.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_private_places_listing_is_not_found_and_a_listed_one_is_shown() {
    let Some(driver) = Driver::start() else { return };
    let club = Club::open(&[("alice", "Alice"), ("bob", "Bob")]).await;
    club.game("alice", "bob", &["e4"]).await;
    let browser = driver.browser(1280).await;
    let listing = club.url("/l/discord/guild");
    // Private (the default): the same page as an address that names nothing.
    browser.goto(&listing).await.unwrap();
    let private = browser.source().await.unwrap();
    browser.goto(&club.url("/l/discord/no-such-server")).await.unwrap();
    let nothing = browser.source().await.unwrap();
    assert_eq!(private, nothing);
    assert!(private.contains("Not found"), "{private}");
    let status = browser.execute("return performance.getEntriesByType('navigation')[0].responseStatus;", vec![]);
    assert_eq!(status.await.unwrap(), serde_json::json!(404));

    club.host.store().write(|tx| tx.set_web_listing("discord", "guild", true, 0)).await.unwrap();
    browser.goto(&listing).await.unwrap();
    let status = browser.execute("return performance.getEntriesByType('navigation')[0].responseStatus;", vec![]);
    assert_eq!(status.await.unwrap(), serde_json::json!(200));
    browser.close().await.unwrap();
}
