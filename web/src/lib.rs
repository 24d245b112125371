//! Chimera's web pages, served over the bot's own store (SQLite or PostgreSQL): a live page per
//! game, its PGN and replay GIF, a live page per tournament, the listings of the places that
//! turned them on, and the rules of every variant.
//!
//! The addresses:
//!
//! | address | what | public to |
//! |---|---|---|
//! | `/g/{key}` (`/live`, `/pgn`, `/gif`) | a game ([`game`]) | whoever holds its key |
//! | `/t/{key}` (`/live`) | a tournament: standings, crosstable, rounds, bracket ([`tournament`]) | whoever holds its key |
//! | `/l/{platform}/{server}` | a place's tournaments and leaderboards ([`listing`]) | all, once the place turned its listing on |
//! | `/l/{platform}/{server}/{variant}` | the place's leaderboard in a variant | the same |
//! | `/l/{platform}/{server}/p/{user}` | a player's ratings and games in the place | the same |
//! | `/rules`, `/rules/{variant}` (`/{diagram}.png`) | the rules and their diagrams ([`rulebook`]) | all |
//!
//! Path segments are percent-decoded (a Matrix room `!abc:example.org` is linked as
//! `%21abc%3Aexample.org`); a listing of a place that has not turned it on is the plain 404.
//!
//! What this crate guarantees of every response:
//!
//! - **Private by construction.** A game is reached only by its unguessable [`data::WebKey`];
//!   no sequential id appears in an address. An address that names nothing, or that is not a
//!   key at all, gets the same plain 404 page, byte for byte, as one that names a game the
//!   visitor may not see: counting addresses tells nothing.
//! - **Escaped.** Pages are `maud` templates, which escape everything interpolated; the only
//!   text inserted raw is our own JSON, with `<`, `>` and `&` written as `\u003c`... so it cannot
//!   end the `<script>` element that carries it ([`page::json_for_script`]).
//! - **Strict headers.** A Content-Security-Policy that allows only this server's own scripts,
//!   styles and images (no inline script or style, no frames, no forms), `nosniff`, and
//!   `Referrer-Policy: no-referrer`, because a page's address is a capability and must not leak
//!   to another site through `Referer` ([`headers`]).
//! - **Self-contained.** Every asset (the piece art from `render`, the style sheet, the script)
//!   is in the binary and served under `/assets/` by a name that changes with its content, so
//!   it is cached for a year and works offline on loopback ([`assets`]).
//!
//! - **Listings show only their place.** A listing page shows only what was played in its own
//!   place (the place in its address, whose listing is on): no game of another place, listed or
//!   not, appears on it ([`listing`]).
//!
//! Live updates (`/g/{key}/live`, `/t/{key}/live`, server-sent events) cost one store poller
//! per watched game or tournament, however many watch it ([`live`]).

mod assets;
mod game;
mod graph;
mod headers;
mod listing;
pub mod live;
mod markdown;
mod page;
mod rulebook;
mod tournament;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::routing::get;
use axum::Router;
use data::AsyncStore;
use tokio::net::TcpListener;

pub use page::{not_found, Page, PageError};

/// How the pages are served.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The colours of the replay GIF (the chat's `CHIMERA_THEME`).
    pub theme: render::Theme,
    /// The replay GIF's width in pixels.
    pub gif_size: u32,
    /// How often a watched game's row is looked at for a new move.
    pub poll_every: Duration,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings { theme: render::Theme::default(), gif_size: 480, poll_every: Duration::from_millis(150) }
    }
}

/// The pages' shared state: the store, the pollers of watched games, the renderer. Cheap to
/// clone (one `Arc`).
#[derive(Clone)]
pub struct Web {
    inner: Arc<Inner>,
}

struct Inner {
    store: AsyncStore,
    settings: Settings,
    renderer: render::Renderer,
    watches: live::Watches<live::LiveGame>,
    tournament_watches: live::Watches<tournament::LiveTournament>,
    /// The rule diagrams drawn so far (each drawn once).
    diagrams: rulebook::Drawn,
}

impl Web {
    pub fn new(store: AsyncStore, settings: Settings) -> Web {
        Web {
            inner: Arc::new(Inner {
                store,
                settings,
                renderer: render::Renderer::new(),
                watches: live::Watches::default(),
                tournament_watches: live::Watches::default(),
                diagrams: rulebook::Drawn::default(),
            }),
        }
    }

    pub fn store(&self) -> &AsyncStore {
        &self.inner.store
    }

    pub fn settings(&self) -> &Settings {
        &self.inner.settings
    }

    /// How many games have a running poller (one per watched game): for tests and metrics.
    pub fn watched_games(&self) -> usize {
        self.inner.watches.len()
    }

    /// How many tournaments have a running poller (one per watched tournament).
    pub fn watched_tournaments(&self) -> usize {
        self.inner.tournament_watches.len()
    }
}

/// Every page and asset, with the security headers on every response (a 404 included).
pub fn router(web: Web) -> Router {
    Router::new()
        .route("/g/{key}", get(game::page))
        .route("/g/{key}/live", get(game::live))
        .route("/g/{key}/pgn", get(game::pgn))
        .route("/g/{key}/gif", get(game::gif))
        .route("/t/{key}", get(tournament::page))
        .route("/t/{key}/live", get(tournament::live))
        .route("/l/{platform}/{server}", get(listing::place))
        .route("/l/{platform}/{server}/{variant}", get(listing::leaderboard))
        .route("/l/{platform}/{server}/p/{user}", get(listing::player))
        .route("/rules", get(rulebook::index))
        .route("/rules/{variant}", get(rulebook::page))
        .route("/rules/{variant}/{diagram}", get(rulebook::diagram))
        .route("/assets/{name}", get(assets::serve))
        .fallback(page::fallback)
        .with_state(web)
        .layer(axum::middleware::map_response(headers::secure))
}

/// Serves [`router`] on `listener` until the task is dropped or the listener fails.
pub async fn serve(listener: TcpListener, web: Web) -> std::io::Result<()> {
    axum::serve(listener, router(web)).await
}

/// An address the pages cannot be served on (in use, not ours, no permission).
#[derive(Debug, thiserror::Error)]
#[error("CHIMERA_WEB_ADDR={addr}: cannot listen there: {source}")]
pub struct BindError {
    pub addr: SocketAddr,
    #[source]
    pub source: std::io::Error,
}

/// The pages served in the background, until dropped.
pub struct Server {
    task: tokio::task::JoinHandle<()>,
    /// Where it listens (a port of 0 asked is the one the system chose).
    pub addr: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Binds `addr` and serves the pages on a task of the current runtime. A failure to bind is
/// returned at once, so an operator sees it at start rather than in a log.
pub async fn start(addr: SocketAddr, web: Web) -> Result<Server, BindError> {
    let listener = TcpListener::bind(addr).await.map_err(|source| BindError { addr, source })?;
    let addr = listener.local_addr().map_err(|source| BindError { addr, source })?;
    let task = tokio::spawn(async move {
        if let Err(e) = serve(listener, web).await {
            tracing::warn!("the web pages stopped: {e}");
        }
    });
    tracing::info!(%addr, "serving the web pages");
    Ok(Server { task, addr })
}
