//! The game page (`/g/{key}`), its live updates (`/g/{key}/live`), its PGN and its replay GIF.
//!
//! The page is whole without JavaScript: the board of the position asked for (`?ply=N`, the
//! latest by default; `?flip=1` turns it round), the players, the clocks, the moves as links to
//! their positions. The script (`assets/game.js`) then steps through the moves in place, counts
//! the running clock down and follows the game live, from the same data the server drew with:
//! the [`Snapshot`] in the page's `<script type="application/json">` and in each live event.

use std::collections::BTreeMap;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use data::{GameId, GameResult, GameState, WebKey};
use host::export::{rating_text, KeptAnalysis, StoredGame};
use maud::{html, Markup};
use rules::{Color, Position, Square};
use serde::Serialize;

use crate::assets::{Script, ASSETS};
use crate::live::{self, LiveGame};
use crate::page::{json_for_script, Page, PageError};
use crate::Web;

/// Milliseconds since the Unix epoch, as the store counts time.
pub(crate) fn now_ms() -> data::Millis {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as data::Millis)
}

/// The key in a `/g/{key}` or `/t/{key}` address; anything that is not one is the plain 404.
pub(crate) fn key(path: Result<Path<String>, PathRejection>) -> Result<WebKey, PageError> {
    let Path(text) = path.map_err(|_| PageError::NotFound)?;
    text.parse().map_err(|_| PageError::NotFound)
}

/// A game as its page shows it: replayed, with its players' ratings in its variant.
pub(crate) struct Shown {
    pub stored: StoredGame,
    pub ratings: [String; 2],
    /// The analysis `/analyse` kept, if it ran.
    pub analysis: Option<KeptAnalysis>,
}

impl Shown {
    fn id(&self) -> GameId {
        self.stored.record().game.id
    }
}

/// The game at `key`, or `NotFound`.
async fn find(web: &Web, key: WebKey) -> Result<Shown, PageError> {
    let id = web.store().read(move |tx| Ok(tx.game_by_web_key(&key)?.map(|g| g.id))).await?;
    load(web, id.ok_or(PageError::NotFound)?).await
}

/// Game `id` read in one transaction (so the moves, players and ratings agree), then replayed.
pub(crate) async fn load(web: &Web, id: GameId) -> Result<Shown, PageError> {
    let (record, white, black, ratings, analysis) = web
        .store()
        .read(move |tx| {
            let record = tx.game_record(id)?;
            let (white, black) = (tx.player(record.game.white)?, tx.player(record.game.black)?);
            let variant = record.game.variant.clone();
            let ratings = [tx.rating(white.id, &variant)?, tx.rating(black.id, &variant)?];
            // Only a finished game is analysed: a game under way (each live update) costs no look.
            let analysis = if record.game.state == GameState::Finished { tx.analysis(id)? } else { None };
            Ok((record, white, black, ratings, analysis))
        })
        .await?;
    let stored = StoredGame::new(record, white, black)?;
    // An analysis of other moves than the game's (it cannot be, but a page must not draw one
    // wrong) is left out.
    let analysis = analysis.map(|a| KeptAnalysis::new(&a)).filter(|a| a.evals.len() == stored.record().moves.len() + 1);
    Ok(Shown { stored, ratings: ratings.map(|r| rating_text(r.as_ref())), analysis })
}

/// What the script needs to draw any position of the game and to follow it: sent in the page,
/// and again (whole) in each live event.
#[derive(Serialize, Debug, Clone)]
pub(crate) struct Snapshot {
    pub start: String,
    pub moves: Vec<Ply>,
    /// `active`, `finished` or `aborted`.
    pub status: &'static str,
    /// The result in words, once there is one (`1-0 · White wins by checkmate`).
    pub outcome: Option<String>,
    pub clock: Option<Clocks>,
}

#[derive(Serialize, Debug, Clone)]
pub(crate) struct Ply {
    pub san: String,
    pub coord: String,
    pub fen: String,
}

/// Each side's time left when the snapshot was taken (`at`, the server's milliseconds), and
/// whose clock runs.
#[derive(Serialize, Debug, Clone)]
pub(crate) struct Clocks {
    pub white: i64,
    pub black: i64,
    pub running: Option<&'static str>,
    pub at: data::Millis,
}

fn color_id(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl Snapshot {
    pub fn of(shown: &Shown, now: data::Millis) -> Snapshot {
        let record = shown.stored.record();
        let game = &record.game;
        let moves = record
            .moves
            .iter()
            .map(|m| Ply { san: m.san.clone(), coord: m.coord.clone(), fen: m.fen_after.clone() })
            .collect();
        let active = game.state == GameState::Active;
        let to_move = shown.stored.ended_game().position().turn();
        let clock = match (shown.stored.time_left(Color::White, now), shown.stored.time_left(Color::Black, now)) {
            (Some(white), Some(black)) => Some(Clocks {
                white,
                black,
                running: (active && game.deadline.is_some()).then(|| color_id(to_move)),
                at: now,
            }),
            _ => None,
        };
        Snapshot {
            start: game.start_fen.clone(),
            moves,
            status: match game.state {
                GameState::Active => "active",
                GameState::Finished => "finished",
                GameState::Aborted => "aborted",
            },
            outcome: outcome(game),
            clock,
        }
    }

    /// The snapshot as one live event's data: JSON on one line.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "null".into())
    }
}

/// The result in words, once the game has one.
fn outcome(game: &data::Game) -> Option<String> {
    let reason = game.reason.as_deref();
    let with = |text: String| match reason {
        Some(reason) => format!("{text} · {reason}"),
        None => text,
    };
    match (game.state, game.result) {
        (GameState::Active, _) => None,
        (GameState::Aborted, _) => Some(with("Aborted".into())),
        (_, Some(GameResult::WhiteWins)) => Some(with("1-0 · White wins".into())),
        (_, Some(GameResult::BlackWins)) => Some(with("0-1 · Black wins".into())),
        (_, Some(GameResult::Draw)) => Some(with("½-½ · Draw".into())),
        (_, None) => Some(with("Ended".into())),
    }
}

/// What the page's script is given besides the snapshot: the board's size and the piece art for
/// each FEN letter of the variant.
#[derive(Serialize)]
struct PageData<'a> {
    files: u8,
    ranks: u8,
    pieces: BTreeMap<char, String>,
    /// The ply shown first (the one the address asked for).
    ply: usize,
    flip: bool,
    live: String,
    state: &'a Snapshot,
}

/// What the address's query asks: a ply to show, and whether Black is at the bottom.
#[derive(Default, Debug, PartialEq)]
struct View {
    ply: Option<usize>,
    flip: bool,
}

impl View {
    /// Reads `ply=N` and `flip=1`; anything else, or a value that does not read, is ignored.
    fn from_query(query: Option<&str>) -> View {
        let mut view = View::default();
        for pair in query.unwrap_or("").split('&') {
            match pair.split_once('=') {
                Some(("ply", n)) => view.ply = n.parse().ok(),
                Some(("flip", v)) => view.flip = v == "1",
                _ => {}
            }
        }
        view
    }

    fn href(ply: usize, flip: bool) -> String {
        if flip {
            format!("?ply={ply}&flip=1")
        } else {
            format!("?ply={ply}")
        }
    }
}

/// `White to move. FEN: …`: a board's text alternative.
fn board_alt(position: &Position) -> String {
    format!("{} to move. FEN: {}", position.turn().name(), position.fen())
}

/// `1:05:09`, `4:59`, `0:07.3` under ten seconds; `2d 03h` for days.
fn clock_text(ms: i64) -> String {
    let ms = ms.max(0);
    let s = ms / 1000;
    if s >= 86_400 {
        format!("{}d {:02}h", s / 86_400, (s % 86_400) / 3600)
    } else if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, (s % 3600) / 60, s % 60)
    } else if s >= 10 {
        format!("{}:{:02}", s / 60, s % 60)
    } else {
        format!("0:{:02}.{}", s, (ms % 1000) / 100)
    }
}

/// `GET /g/{key}`: the game page.
pub async fn page(
    State(web): State<Web>,
    path: Result<Path<String>, PathRejection>,
    RawQuery(query): RawQuery,
) -> Result<Response, PageError> {
    let key = key(path)?;
    let shown = find(&web, key.clone()).await?;
    let view = View::from_query(query.as_deref());
    let mut response =
        Page { title: title(&shown), body: body(&shown, &key, &view, now_ms()), script: Some(Script::Game) }
            .into_response();
    // A live page: never served from a cache.
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

fn title(shown: &Shown) -> String {
    let name = |c| &shown.stored.player(c).display_name;
    format!("{} vs {} · {} · Chimera", name(Color::White), name(Color::Black), shown.stored.variant().name())
}

fn body(shown: &Shown, key: &WebKey, view: &View, now: data::Millis) -> Markup {
    let stored = &shown.stored;
    let record = stored.record();
    let game = stored.ended_game();
    let positions = game.positions();
    let last = positions.len() - 1;
    let ply = view.ply.unwrap_or(last).min(last);
    let position = &positions[ply];
    let snapshot = Snapshot::of(shown, now);
    let geometry = stored.variant().geometry();
    let pieces = stored
        .variant()
        .roles()
        .iter()
        .flat_map(|&role| Color::ALL.map(|color| rules::Piece::new(color, role)))
        .map(|piece| (piece.char(), ASSETS.piece(piece).href()))
        .collect();
    let data = PageData {
        files: geometry.width,
        ranks: geometry.height,
        pieces,
        ply,
        flip: view.flip,
        live: format!("/g/{key}/live"),
        state: &snapshot,
    };
    let (top, bottom) = if view.flip { (Color::White, Color::Black) } else { (Color::Black, Color::White) };
    let last_move = ply.checked_sub(1).map(|i| game.moves()[i]);
    let highlighted = |sq: Square| last_move.is_some_and(|m| m.from == sq || m.to == sq);
    let player = |color: Color| {
        let p = stored.player(color);
        let index = color.index();
        let clock = snapshot.clock.as_ref().map(|c| if color == Color::White { c.white } else { c.black });
        let running = snapshot.clock.as_ref().and_then(|c| c.running) == Some(color_id(color));
        html! {
            div.player data-color=(color_id(color)) {
                span.swatch.(color_id(color)) aria-hidden="true" {}
                span.name { (p.display_name) }
                span.rating { (shown.ratings[index]) }
                @if let Some(ms) = clock {
                    span.clock.running[running] data-color=(color_id(color)) { (clock_text(ms)) }
                }
            }
        }
    };
    let mut ranks: Vec<u8> = (0..geometry.height).rev().collect();
    let mut files: Vec<u8> = (0..geometry.width).collect();
    if view.flip {
        ranks.reverse();
        files.reverse();
    }
    let sans: Vec<&str> = record.moves.iter().map(|m| m.san.as_str()).collect();
    let mark = |ply: usize| {
        shown.analysis.as_ref().and_then(|a| a.marks.iter().find(|(m, _)| m.ply == ply)).map(|(m, better)| {
            let title = match better {
                Some(better) => format!("{} (better: {better})", m.judgement.name()),
                None => m.judgement.name().to_string(),
            };
            (m.judgement, title)
        })
    };
    html! {
        div.game {
            section.board-area {
                (player(top))
                div #board .board .(format!("b{}", geometry.width)) role="img" aria-label=(board_alt(position)) {
                    @for (row, &rank) in ranks.iter().enumerate() {
                        @for (col, &file) in files.iter().enumerate() {
                            @if let Some(sq) = Square::new(file, rank) {
                                @let light = (file + rank) % 2 == 1;
                                div.sq.light[light].dark[!light].last[highlighted(sq)] {
                                    @if let Some(piece) = position.board().piece_at(sq) {
                                        img src=(ASSETS.piece(piece).href()) alt="";
                                    }
                                    @if col == 0 { span.coord.rank { (rank + 1) } }
                                    @if row == ranks.len() - 1 { span.coord.file { (sq.file_char()) } }
                                }
                            }
                        }
                    }
                }
                (player(bottom))
                p #board-alt .visually-hidden aria-live="polite" { (board_alt(position)) }
                nav.controls aria-label="Moves" {
                    a #first href=(View::href(0, view.flip)) title="First move (Home)" aria-label="First move" { (icon(FIRST)) }
                    a #prev href=(View::href(ply.saturating_sub(1), view.flip)) title="Previous move (←)" aria-label="Previous move" { (icon(PREVIOUS)) }
                    a #next href=(View::href((ply + 1).min(last), view.flip)) title="Next move (→)" aria-label="Next move" { (icon(NEXT)) }
                    a #last href=(View::href(last, view.flip)) title="Last move (End)" aria-label="Last move" { (icon(LAST)) }
                    a #flip href=(View::href(ply, !view.flip)) title="Flip the board" { "Flip" }
                }
            }
            section.side {
                h1 {
                    (stored.player(Color::White).display_name) " vs " (stored.player(Color::Black).display_name)
                }
                p.meta {
                    a href=(format!("/rules/{}", stored.variant().id())) { (stored.variant().name()) }
                    " · " (stored.describe_time())
                    " · " (if record.game.rated { "rated" } else { "unrated" })
                }
                p #outcome .outcome hidden[snapshot.outcome.is_none()] { (snapshot.outcome.as_deref().unwrap_or("")) }
                @if let Some(analysis) = &shown.analysis { (crate::graph::graph(analysis, ply, view.flip)) }
                ol #moves .moves {
                    @for (i, pair) in sans.chunks(2).enumerate() {
                        li {
                            @for (j, san) in pair.iter().enumerate() {
                                @let n = 2 * i + j + 1;
                                a.ply.current[n == ply] href=(View::href(n, view.flip)) data-ply=(n) {
                                    (san)
                                    @if let Some((judgement, title)) = mark(n) {
                                        span.mark.(judgement.name()) title=(title) { (judgement.symbol()) }
                                    }
                                }
                            }
                        }
                    }
                }
                @if sans.is_empty() { p #no-moves { "No moves yet." } }
                p.downloads {
                    a href=(format!("/g/{key}/pgn")) download { "PGN" }
                    " "
                    a href=(format!("/g/{key}/gif")) download { "GIF" }
                }
            }
        }
        script #game-data type="application/json" { (json_for_script(&data)) }
    }
}

/// The move buttons' icons, as SVG paths on a 16-unit square: drawn, not taken from a font, so
/// they show on a machine whose fonts lack the media symbols (`⏮`, `⏭`).
const FIRST: &str = "M2 2h2v12H2zM14 2v12L5 8z";
const PREVIOUS: &str = "M12 2v12L3 8z";
const NEXT: &str = "M4 2v12l9-6z";
const LAST: &str = "M12 2h2v12h-2zM2 2v12l9-6z";

fn icon(path: &str) -> Markup {
    html! {
        svg.icon viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false" {
            path fill="currentColor" d=(path) {}
        }
    }
}

/// `GET /g/{key}/live`: server-sent events, one per change of the game, each the whole
/// [`Snapshot`]; the first is the game as it stands when the stream opens.
pub async fn live(State(web): State<Web>, path: Result<Path<String>, PathRejection>) -> Result<Response, PageError> {
    let key = key(path)?;
    let id = web.store().read(move |tx| Ok(tx.game_by_web_key(&key)?.map(|g| g.id))).await?;
    let updates = live::watch(&web, LiveGame(id.ok_or(PageError::NotFound)?));
    Ok(live::stream(updates))
}

/// `GET /g/{key}/pgn`: the game as PGN, as `/pgn` gives it in chat.
pub async fn pgn(State(web): State<Web>, path: Result<Path<String>, PathRejection>) -> Result<Response, PageError> {
    let shown = find(&web, key(path)?).await?;
    let disposition = format!("attachment; filename=\"chimera-{}.pgn\"", shown.stored.variant().id());
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("application/x-chess-pgn; charset=utf-8")),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_str(&disposition).map_err(|e| PageError::Broken(e.to_string()))?,
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        shown.stored.pgn(),
    )
        .into_response())
}

/// `GET /g/{key}/gif`: the replay, as the result message in chat carries it.
pub async fn gif(State(web): State<Web>, path: Result<Path<String>, PathRejection>) -> Result<Response, PageError> {
    let shown = find(&web, key(path)?).await?;
    let disposition = format!("attachment; filename=\"chimera-{}.gif\"", shown.stored.variant().id());
    let id = shown.id();
    let drawer = web.clone();
    // Tens of milliseconds for a long game: not on the runtime's threads.
    let out = tokio::task::spawn_blocking(move || {
        let settings = drawer.settings();
        shown.stored.replay_gif(&drawer.inner.renderer, settings.theme, settings.gif_size)
    })
    .await
    .map_err(|e| PageError::Broken(format!("drawing the replay of game {id}: {e}")))?;
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("image/gif")),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_str(&disposition).map_err(|e| PageError::Broken(e.to_string()))?,
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        out.bytes,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_reads_a_ply_and_a_flip_and_ignores_the_rest() {
        assert_eq!(View::from_query(None), View::default());
        assert_eq!(View::from_query(Some("ply=3&flip=1")), View { ply: Some(3), flip: true });
        assert_eq!(View::from_query(Some("ply=-1&flip=yes&x=<")), View { ply: None, flip: false });
        assert_eq!(View::from_query(Some("ply=99999999999999999999999")), View::default());
    }

    #[test]
    fn clocks_read_as_a_clock_does() {
        assert_eq!(clock_text(3_909_000), "1:05:09");
        assert_eq!(clock_text(299_000), "4:59");
        assert_eq!(clock_text(7_340), "0:07.3");
        assert_eq!(clock_text(-5), "0:00.0");
        assert_eq!(clock_text(3 * 86_400_000 + 4 * 3_600_000), "3d 04h");
    }
}
