//! The tournament page (`/t/{key}`) and its live updates (`/t/{key}/live`).
//!
//! The page shows the tournament's name, variant, terms and state; its standings, the same
//! lines in the same order with the same values as `/tournament standings` (both come from
//! [`host::export::StoredTournament::standings`]); a crosstable for a round robin; a bracket for
//! a knockout; and every round's pairings and results, each game linked by its own key. Only
//! the tournament's key opens it: an unknown or malformed key is the plain 404.
//!
//! Live: while the tournament is open or running, the page's script (`assets/tournament.js`)
//! listens to `/t/{key}/live` (server-sent events) and puts each event's HTML (the page's
//! changing part, drawn and escaped on the server, sent as a JSON string) in place. Why events rather than a script that re-fetches
//! a fragment: the game page already follows games this way ([`crate::live`]), and with it each
//! watched tournament costs one poller that reads and draws it once per change, however many
//! watch it, where re-fetching would read and draw it once per viewer per interval. Without
//! the script the page is whole; reloading it shows the latest.

use std::collections::HashMap;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use data::{Format, Pairing, PairingResult, PlayerId, TournamentId, TournamentState, WebKey};
use host::export::{points_text, StandingRow, StoredTournament};
use host::pairing::knockout_winner;
use maud::{html, Markup};

use crate::assets::Script;
use crate::game::key;
use crate::live::{self, Subject, Watches};
use crate::page::{Page, PageError};
use crate::Web;

/// The tournament at `key`, or `NotFound`.
async fn find(web: &Web, key: WebKey) -> Result<TournamentId, PageError> {
    let id = web.store().read(move |tx| Ok(tx.tournament_by_web_key(&key)?.map(|t| t.id))).await?;
    id.ok_or(PageError::NotFound)
}

async fn load(web: &Web, id: TournamentId) -> Result<StoredTournament, PageError> {
    Ok(web.store().read(move |tx| StoredTournament::load(tx, id)).await?)
}

/// `GET /t/{key}`: the tournament page.
pub async fn page(State(web): State<Web>, path: Result<Path<String>, PathRejection>) -> Result<Response, PageError> {
    let key = key(path)?;
    let stored = load(&web, find(&web, key.clone()).await?).await?;
    let t = stored.tournament();
    let variant: Option<rules::Variant> = t.variant.parse().ok();
    let terms = stored.terms()?;
    let live = matches!(t.state, TournamentState::Open | TournamentState::Running);
    let body = html! {
        div.tournament {
            h1 { (t.name) }
            p.meta {
                @if let Some(v) = variant {
                    a href=(format!("/rules/{}", v.id())) { (v.name()) }
                    " · "
                }
                (terms)
            }
            div #tournament-live data-live=[live.then(|| format!("/t/{key}/live"))] { (fragment(&stored)) }
        }
    };
    let mut response =
        Page { title: format!("{} · Chimera", t.name), body, script: live.then_some(Script::Tournament) }
            .into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// `GET /t/{key}/live`: server-sent events, one per change of the tournament, each the HTML of
/// the page's changing part; the first is the tournament as it stands when the stream opens.
pub async fn live(State(web): State<Web>, path: Result<Path<String>, PathRejection>) -> Result<Response, PageError> {
    let id = find(&web, key(path)?).await?;
    Ok(live::stream(live::watch(&web, LiveTournament(id))))
}

/// A tournament followed live.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct LiveTournament(pub TournamentId);

/// What changes when a tournament does: its row, its entrants (joined, withdrawn), its rounds
/// and every pairing's result and latest game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TournamentMark {
    state: TournamentState,
    updated_at: data::Millis,
    entrants: Vec<(PlayerId, Option<data::Millis>)>,
    pairings: Vec<PairingMark>,
}

/// A pairing as the mark sees it: its round's number and end, its board, result and game.
type PairingMark = (u32, Option<data::Millis>, u32, Option<PairingResult>, Option<data::GameId>);

/// A crosstable cell's results, one per game: the mark and the game's key.
type Cell<'a> = Vec<(&'static str, Option<&'a WebKey>)>;

impl Subject for LiveTournament {
    type Mark = TournamentMark;

    fn watches(web: &Web) -> &Watches<LiveTournament> {
        &web.inner.tournament_watches
    }

    async fn look(self, web: &Web) -> data::Result<TournamentMark> {
        let id = self.0;
        web.store()
            .read(move |tx| {
                let t = tx.tournament(id)?;
                let entrants = tx.entrants(id)?.into_iter().map(|e| (e.player, e.withdrawn_at)).collect();
                let pairings = tx
                    .rounds(id)?
                    .into_iter()
                    .flat_map(|r| {
                        let (number, finished) = (r.number, r.finished_at);
                        r.pairings.into_iter().map(move |p| (number, finished, p.board, p.result, p.game))
                    })
                    .collect();
                Ok(TournamentMark { state: t.state, updated_at: t.updated_at, entrants, pairings })
            })
            .await
    }

    /// The changing part's HTML as a JSON string: one line, whatever a name holds (an event's
    /// data may hold no carriage return).
    async fn draw(self, web: &Web) -> Result<String, PageError> {
        let html = fragment(&load(web, self.0).await?).into_string();
        serde_json::to_string(&html).map_err(|e| PageError::Broken(e.to_string()))
    }
}

/// A player's name as the tournament knows it.
fn name(stored: &StoredTournament, id: PlayerId) -> &str {
    stored.player(id).map_or("?", |p| p.display_name.as_str())
}

/// The part of the page that changes as the tournament runs.
fn fragment(stored: &StoredTournament) -> Markup {
    let t = stored.tournament();
    let standings = stored.standings();
    let over = matches!(t.state, TournamentState::Finished | TournamentState::Cancelled);
    html! {
        p.state data-over=[over.then_some("1")] { (state_line(stored, &standings)) }
        @if stored.rounds().is_empty() {
            h2 { "Players" }
            @if stored.entrants().is_empty() {
                p { "Nobody has joined yet." }
            } @else {
                ul.entrants {
                    @for e in stored.entrants() { li { (name(stored, e.player)) } }
                }
            }
        } @else {
            h2 { "Standings" }
            (standings_table(&standings))
            @if t.format == Format::RoundRobin {
                h2 { "Crosstable" }
                (crosstable(stored, &standings))
            }
            @if t.format == Format::Knockout {
                h2 { "Bracket" }
                (bracket(stored))
            }
            h2 { "Rounds" }
            @for round in stored.rounds().iter().rev() {
                section.round {
                    h3 { "Round " (round.number) @if round.finished_at.is_none() { " (playing)" } }
                    div.scroll {
                        table.pairings {
                            thead { tr { th { "Board" } th { "White" } th { "Result" } th { "Black" } } }
                            tbody {
                                @for p in &round.pairings {
                                    tr {
                                        td.num { (p.board) }
                                        td { (name(stored, p.white)) }
                                        td.result { (pairing_result(stored, p)) }
                                        td { @if let Some(black) = p.black { (name(stored, black)) } @else { "bye" } }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// `Running: round 3 of 5`, `Finished: Ann wins`, `Open: starts at …`.
fn state_line(stored: &StoredTournament, standings: &[StandingRow]) -> String {
    let t = stored.tournament();
    let of = t.rounds.map_or(String::new(), |n| format!(" of {n}"));
    match t.state {
        TournamentState::Open => {
            let n = stored.entrants().len();
            format!("Open for entrants: {n} player{} joined.", if n == 1 { " has" } else { "s have" })
        }
        TournamentState::Running => format!("Running: round {}{of}.", stored.rounds().len()),
        TournamentState::Cancelled => "Cancelled.".into(),
        TournamentState::Finished => {
            let champion = match t.format {
                Format::Knockout => stored
                    .rounds()
                    .last()
                    .and_then(|r| r.pairings.first())
                    .and_then(knockout_winner)
                    .map(|id| name(stored, id).to_string()),
                _ => standings.first().map(|s| s.name.clone()),
            };
            match champion {
                Some(champion) => format!("Finished: {champion} wins."),
                None => "Finished.".into(),
            }
        }
    }
}

/// The standings table: the columns `/tournament standings` shows, in its order.
fn standings_table(standings: &[StandingRow]) -> Markup {
    html! {
        div.scroll {
            table.standings {
                thead {
                    tr {
                        th title="Rank" { "#" } th { "Player" } th title="Points" { "Pts" }
                        th title="Buchholz" { "Buchholz" } th title="Sonneborn-Berger" { "S-B" }
                        th title="Direct encounter" { "DE" } th { "Games" } th { "W" } th { "D" } th { "L" }
                    }
                }
                tbody {
                    @for row in standings {
                        @let s = &row.standing;
                        tr {
                            td.num.rank { (s.rank) }
                            td.name { (row.name) @if row.withdrawn { " (withdrawn)" } }
                            td.num.points { (points_text(s.points)) }
                            td.num { (points_text(s.buchholz)) }
                            td.num { (points_text(s.sonneborn_berger)) }
                            td.num { (points_text(s.direct_encounter)) }
                            td.num { (s.games) }
                            td.num { (s.wins) }
                            td.num { (s.draws) }
                            td.num { (s.losses) }
                        }
                    }
                }
            }
        }
    }
}

/// `1-0`, `½-½`, `1-0 (forfeit)`, `bye (1)`, or `playing` with the game linked.
fn pairing_result(stored: &StoredTournament, p: &Pairing) -> Markup {
    let game = stored.game_of(p);
    let text = match (p.black, p.result) {
        (None, Some(PairingResult::WhiteWins)) => "bye (1)".to_string(),
        (None, Some(PairingResult::Draw)) => "bye (½)".to_string(),
        (None, _) => "bye (0)".to_string(),
        (Some(_), None) => "playing".to_string(),
        (Some(_), Some(result)) => {
            let decided = match (stored.tournament().format, game) {
                (Format::Knockout, Some(g)) if g.white != p.white => " after a decider",
                _ => "",
            };
            format!("{}{decided}", result_text(result))
        }
    };
    html! {
        @match game {
            Some(g) => a href=(format!("/g/{}", g.web_key)) { (text) },
            None => (text),
        }
    }
}

fn result_text(result: PairingResult) -> &'static str {
    match result {
        PairingResult::WhiteWins => "1-0",
        PairingResult::BlackWins => "0-1",
        PairingResult::Draw => "½-½",
        PairingResult::WhiteWinsByForfeit => "1-0 (forfeit)",
        PairingResult::BlackWinsByForfeit => "0-1 (forfeit)",
        PairingResult::DoubleForfeit => "both forfeit",
    }
}

/// One player's result against another in a crosstable cell: `1`, `½`, `0`, `+`/`−` for
/// forfeits, `*` while playing.
fn cross_mark(result: Option<PairingResult>, white: bool) -> &'static str {
    use PairingResult::*;
    match (result, white) {
        (None, _) => "*",
        (Some(Draw), _) => "½",
        (Some(WhiteWins), true) | (Some(BlackWins), false) => "1",
        (Some(WhiteWins), false) | (Some(BlackWins), true) => "0",
        (Some(WhiteWinsByForfeit), true) | (Some(BlackWinsByForfeit), false) => "+",
        (Some(WhiteWinsByForfeit), false) | (Some(BlackWinsByForfeit), true) | (Some(DoubleForfeit), _) => "−",
    }
}

/// The round robin's crosstable: the players in standings order, each row their results
/// against each column's player (twice in a double round robin), linked to the game.
fn crosstable(stored: &StoredTournament, standings: &[StandingRow]) -> Markup {
    let index: HashMap<PlayerId, usize> = standings.iter().enumerate().map(|(i, s)| (s.standing.player, i)).collect();
    // (row, column) -> the row player's results against the column player, round by round.
    let mut cells: HashMap<(usize, usize), Cell<'_>> = HashMap::new();
    for round in stored.rounds() {
        for p in &round.pairings {
            let Some(black) = p.black else { continue };
            let (Some(&w), Some(&b)) = (index.get(&p.white), index.get(&black)) else { continue };
            let key = stored.game_of(p).map(|g| &g.web_key);
            cells.entry((w, b)).or_default().push((cross_mark(p.result, true), key));
            cells.entry((b, w)).or_default().push((cross_mark(p.result, false), key));
        }
    }
    html! {
        div.scroll {
            table.crosstable {
                thead {
                    tr {
                        th { "#" } th { "Player" }
                        @for i in 1..=standings.len() { th.num { (i) } }
                        th { "Pts" }
                    }
                }
                tbody {
                    @for (i, row) in standings.iter().enumerate() {
                        tr {
                            td.num { (i + 1) }
                            td.name { (row.name) }
                            @for j in 0..standings.len() {
                                @if i == j {
                                    td.diag aria-label="—" {}
                                } @else {
                                    td.cell {
                                        @for (mark, key) in cells.get(&(i, j)).map(Vec::as_slice).unwrap_or_default() {
                                            @match key {
                                                Some(key) => a href=(format!("/g/{key}")) { (mark) },
                                                None => span { (mark) },
                                            }
                                        }
                                    }
                                }
                            }
                            td.num.points { (points_text(row.standing.points)) }
                        }
                    }
                }
            }
        }
    }
}

/// The name of a knockout round by how many remain after it.
fn knockout_round_name(number: u32, total: Option<u32>) -> String {
    match total.map(|t| t.saturating_sub(number)) {
        Some(0) => "Final".into(),
        Some(1) => "Semi-finals".into(),
        Some(2) => "Quarter-finals".into(),
        _ => format!("Round {number}"),
    }
}

/// The knockout bracket: one column per round, its matches in bracket order (round 1's board
/// order is the bracket), each match's winner marked.
fn bracket(stored: &StoredTournament) -> Markup {
    let total = stored.tournament().rounds;
    html! {
        div.scroll {
            div.bracket {
                @for round in stored.rounds() {
                    section.bracket-round {
                        h3 { (knockout_round_name(round.number, total)) }
                        ol.matches {
                            @for p in &round.pairings {
                                @let winner = knockout_winner(p);
                                li.match {
                                    div.entry.winner[winner == Some(p.white)] { (name(stored, p.white)) }
                                    @match p.black {
                                        Some(black) => div.entry.winner[winner == Some(black)] { (name(stored, black)) },
                                        None => div.entry.bye { "bye" },
                                    }
                                    @if p.black.is_some() {
                                        div.score { (pairing_result(stored, p)) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crosstable_marks_read_from_each_side() {
        assert_eq!(cross_mark(Some(PairingResult::WhiteWins), true), "1");
        assert_eq!(cross_mark(Some(PairingResult::WhiteWins), false), "0");
        assert_eq!(cross_mark(Some(PairingResult::Draw), false), "½");
        assert_eq!(cross_mark(Some(PairingResult::BlackWinsByForfeit), false), "+");
        assert_eq!(cross_mark(Some(PairingResult::DoubleForfeit), true), "−");
        assert_eq!(cross_mark(None, true), "*");
    }

    #[test]
    fn knockout_rounds_are_named_from_the_end() {
        assert_eq!(knockout_round_name(3, Some(3)), "Final");
        assert_eq!(knockout_round_name(2, Some(3)), "Semi-finals");
        assert_eq!(knockout_round_name(1, Some(3)), "Quarter-finals");
        assert_eq!(knockout_round_name(1, Some(4)), "Round 1");
        assert_eq!(knockout_round_name(1, None), "Round 1");
    }
}
