//! The listings of a place (a Discord server, a Matrix room), shown only once its managers
//! turned them on (`data`'s `web_listing`, set by `/settings web:on`):
//!
//! - `/l/{platform}/{server}`: the place's tournaments, linked by their keys, and its
//!   leaderboards;
//! - `/l/{platform}/{server}/{variant}`: the place's leaderboard in a variant (the players who
//!   finished a game of it there, by their rating);
//! - `/l/{platform}/{server}/p/{user}`: a player's ratings and their games in the place, linked
//!   by their keys.
//!
//! What these pages guarantee:
//! - A place whose listing is off (or was never set, or does not exist) answers every one of
//!   them with the plain 404, the same bytes as an unknown game; so does a player who never
//!   played there, and a variant named by anything but its exact id.
//! - They show only what was played in their own place: the games are read by the place in the
//!   address ([`data::ReadTx::place_games_of`]), so no game of another place, listed or not,
//!   appears. A rating is the player's one rating on the platform (ratings are not kept per
//!   place); no game behind it is named.
//! - No sequential id appears in an address: games and tournaments are linked by their keys,
//!   players by their platform's user id. Every segment is percent-encoded in links
//!   ([`encode`]) and percent-decoded by the router, so a Matrix room `!abc:example.org` is
//!   `/l/matrix/%21abc%3Aexample.org`.

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use data::{Game, GameResult, GameState, Player, Rating, Tournament};
use host::export::rating_text;
use maud::{html, Markup};
use rules::Variant;

use crate::page::{Page, PageError};
use crate::rulebook::variant_by_id;
use crate::Web;

/// How many tournaments, leaderboard lines and games a page shows at most.
const LIST_LENGTH: u32 = 100;

/// `text` as one path segment: every byte but the unreserved ones (`A-Z a-z 0-9 - . _ ~`)
/// written `%XX`.
pub(crate) fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A listed place, as its address names it.
#[derive(Clone, Debug)]
struct Place {
    platform: String,
    server: String,
}

impl Place {
    fn href(&self) -> String {
        format!("/l/{}/{}", encode(&self.platform), encode(&self.server))
    }

    fn leaderboard_href(&self, variant: Variant) -> String {
        format!("{}/{}", self.href(), variant.id())
    }

    fn player_href(&self, player: &Player) -> String {
        format!("{}/p/{}", self.href(), encode(&player.user_id))
    }

    /// `the discord server 1234`: the place as the page names it (ids only: the store keeps no
    /// place names).
    fn title(&self) -> String {
        format!("{} {}", self.platform, self.server)
    }

    /// `Ok` if the place's listing is on; the plain 404 otherwise.
    fn check(&self, tx: &data::ReadTx<'_>) -> data::Result<Result<(), PageError>> {
        Ok(if tx.web_listing(&self.platform, &self.server)? { Ok(()) } else { Err(PageError::NotFound) })
    }

    fn nav(&self) -> Markup {
        html! { p.crumbs { a href=(self.href()) { (self.title()) } } }
    }
}

/// `GET /l/{platform}/{server}`: the place's tournaments and leaderboards.
pub async fn place(
    State(web): State<Web>,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<Response, PageError> {
    let Path((platform, server)) = path.map_err(|_| PageError::NotFound)?;
    let place = Place { platform, server };
    let read = place.clone();
    let tournaments = web
        .store()
        .read(move |tx| {
            if let Err(e) = read.check(tx)? {
                return Ok(Err(e));
            }
            Ok(Ok(tx.server_tournaments_page(&read.platform, &read.server, 0, LIST_LENGTH)?))
        })
        .await??;
    let body = html! {
        h1 { (place.title()) }
        h2 { "Tournaments" }
        @if tournaments.is_empty() {
            p { "No tournaments here yet." }
        } @else {
            ul.tournaments { @for t in &tournaments { li { (tournament_line(t)) } } }
        }
        h2 { "Leaderboards" }
        ul.leaderboards {
            @for v in Variant::ALL { li { a href=(place.leaderboard_href(v)) { (v.name()) } } }
        }
    };
    Ok(Page { title: format!("{} · Chimera", place.title()), body, script: None }.into_response())
}

fn tournament_line(t: &Tournament) -> Markup {
    let variant = t.variant.parse::<Variant>().map_or_else(|_| t.variant.clone(), |v| v.name().to_string());
    html! {
        a href=(format!("/t/{}", t.web_key)) { (t.name) }
        " · " (variant) " · " (t.format) " · " (t.state)
    }
}

/// `GET /l/{platform}/{server}/{variant}`: the place's leaderboard in a variant.
pub async fn leaderboard(
    State(web): State<Web>,
    path: Result<Path<(String, String, String)>, PathRejection>,
) -> Result<Response, PageError> {
    let Path((platform, server, variant)) = path.map_err(|_| PageError::NotFound)?;
    let place = Place { platform, server };
    let read = place.clone();
    let variant = variant_by_id(&variant);
    let rows = web
        .store()
        .read(move |tx| {
            if let Err(e) = read.check(tx)? {
                return Ok(Err(e));
            }
            let Some(variant) = variant else { return Ok(Err(PageError::NotFound)) };
            Ok(Ok(tx.place_leaderboard(&read.platform, &read.server, variant.id(), LIST_LENGTH)?))
        })
        .await??;
    let variant = variant.ok_or(PageError::NotFound)?;
    let body = html! {
        (place.nav())
        h1 { (variant.name()) " leaderboard" }
        @if rows.is_empty() {
            p { "Nobody has finished a game of " (variant.name()) " here yet." }
        } @else {
            div.scroll {
                table.leaderboard {
                    thead { tr { th { "#" } th { "Player" } th { "Rating" } th { "Rated games" } } }
                    tbody {
                        @for (i, (player, rating)) in rows.iter().enumerate() {
                            tr {
                                td.num { (i + 1) }
                                td.name { a href=(place.player_href(player)) { (player.display_name) } }
                                td.num { (rating_text(Some(rating))) }
                                td.num { (rating.games) }
                            }
                        }
                    }
                }
            }
        }
        p { a href=(format!("/rules/{}", variant.id())) { "The rules of " (variant.name()) } }
    };
    Ok(Page { title: format!("{} leaderboard · {} · Chimera", variant.name(), place.title()), body, script: None }
        .into_response())
}

/// `GET /l/{platform}/{server}/p/{user}`: a player's ratings and their games in the place.
pub async fn player(
    State(web): State<Web>,
    path: Result<Path<(String, String, String)>, PathRejection>,
) -> Result<Response, PageError> {
    let Path((platform, server, user)) = path.map_err(|_| PageError::NotFound)?;
    let place = Place { platform, server };
    let read = place.clone();
    let (player, ratings, games) = web
        .store()
        .read(move |tx| {
            if let Err(e) = read.check(tx)? {
                return Ok(Err(e));
            }
            let Some(player) = tx.find_player(&read.platform, &user)? else { return Ok(Err(PageError::NotFound)) };
            if !tx.played_in_place(player.id, &read.platform, &read.server)? {
                return Ok(Err(PageError::NotFound));
            }
            let ratings: Vec<Rating> = tx.ratings_of(player.id)?;
            let mut games = Vec::new();
            for g in tx.place_games_of(player.id, &read.platform, &read.server, LIST_LENGTH)? {
                let opponent = tx.player(if g.white == player.id { g.black } else { g.white })?;
                games.push((g, opponent));
            }
            Ok(Ok((player, ratings, games)))
        })
        .await??;
    let body = html! {
        (place.nav())
        h1 { (player.display_name) }
        h2 { "Ratings" }
        @if ratings.is_empty() {
            p { "No rated games yet." }
        } @else {
            div.scroll {
                table.ratings {
                    thead { tr { th { "Variant" } th { "Rating" } th { "Rated games" } } }
                    tbody {
                        @for r in &ratings {
                            tr {
                                td { (variant_name(&r.variant)) }
                                td.num { (rating_text(Some(r))) }
                                td.num { (r.games) }
                            }
                        }
                    }
                }
            }
        }
        h2 { "Games here" }
        div.scroll {
            table.games {
                thead { tr { th { "Game" } th { "Colour" } th { "Opponent" } th { "Result" } } }
                tbody {
                    @for (g, opponent) in &games {
                        tr {
                            td { a href=(format!("/g/{}", g.web_key)) { (variant_name(&g.variant)) } }
                            td { (if g.white == player.id { "White" } else { "Black" }) }
                            td { (opponent.display_name) }
                            td { (result_for(g, player.id)) }
                        }
                    }
                }
            }
        }
    };
    Ok(Page { title: format!("{} · {} · Chimera", player.display_name, place.title()), body, script: None }
        .into_response())
}

fn variant_name(id: &str) -> String {
    variant_by_id(id).map_or_else(|| id.to_string(), |v| v.name().to_string())
}

/// `won 1-0`, `drew ½-½`, `playing`: a game's result from `player`'s side.
fn result_for(game: &Game, player: data::PlayerId) -> String {
    let white = game.white == player;
    match (game.state, game.result) {
        (GameState::Active, _) => "playing".into(),
        (GameState::Aborted, _) => "aborted".into(),
        (_, Some(GameResult::Draw)) => "drew ½-½".into(),
        (_, Some(GameResult::WhiteWins)) => (if white { "won 1-0" } else { "lost 1-0" }).into(),
        (_, Some(GameResult::BlackWins)) => (if white { "lost 0-1" } else { "won 0-1" }).into(),
        (_, None) => "ended".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::encode;

    #[test]
    fn a_segment_is_encoded_whole() {
        assert_eq!(encode("!abc:example.org"), "%21abc%3Aexample.org");
        assert_eq!(encode("@ann:example.org"), "%40ann%3Aexample.org");
        assert_eq!(encode("a/b?c#d e%"), "a%2Fb%3Fc%23d%20e%25");
        assert_eq!(encode("1234-_.~"), "1234-_.~");
        assert_eq!(encode("é"), "%C3%A9");
    }
}
