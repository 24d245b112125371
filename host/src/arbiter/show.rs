//! What the arbiter says: announcements, pairings and standings as text tables, and the
//! standings picture.

use data::{Format, PairingResult, Round, TournamentId};
use rules::Color;

use super::super::clock::{format_duration, spell_duration};
use super::super::export::StandingRow;
use super::super::stored::Terms;
use super::super::table::Table;
use super::super::tiebreak;
use super::super::view::to_move_line;
use super::super::{Command, Host, Image, Message, Refusal, TournamentCommand, User};
use super::event::Event;
use super::rounds::{bye_points, decider_note};

/// The tournament's announcement that it has begun.
pub(crate) fn started(event: &Event) -> Result<Message, Refusal> {
    let id = Some(event.t.id);
    let mut message = Message::text(format!(
        "{} begins: {}, {} players. Games open in places of their own; `{}` and `{}` follow it.",
        capital(&event.title()),
        event.terms()?,
        event.entrants.len(),
        Command::<User>::Tournament(TournamentCommand::Pairings { round: None, id }),
        Command::<User>::Tournament(TournamentCommand::Standings { id }),
    ));
    for e in &event.entrants {
        message = message.mentioning(&event.user(e.player));
    }
    Ok(message.in_channel(&event.t.channel))
}

pub(crate) fn cancelled_at_start(event: &Event, why: &str) -> Message {
    let mut message = Message::text(format!("{why} Its start time has come, so it is cancelled."));
    for e in &event.entrants {
        message = message.mentioning(&event.user(e.player));
    }
    message.mentioning(&event.user(event.t.organiser)).in_channel(&event.t.channel)
}

/// The first message of a tournament game, in its own place: both players called (the board is
/// its picture, drawn when it is posted).
pub(crate) fn game_started(
    event: &Event,
    round: &Round,
    pairing: &data::Pairing,
    table: &Table,
    decider: bool,
) -> Vec<Message> {
    let g = &table.record.game;
    let time = table.describe_time();
    let mut text = format!(
        "{}, round {}, board {}: game {}, {} (White) against {} (Black), {}, {time}, {}.",
        capital(&event.title()),
        round.number,
        pairing.board,
        g.id,
        table.name(Color::White),
        table.name(Color::Black),
        table.variant().name(),
        if g.rated { "rated" } else { "unrated" }
    );
    if let Some(note) = decider_note(pairing, g) {
        text.push(' ');
        text.push_str(&note);
    }
    text.push_str(&format!(" {} Moves: `/move e4`.", to_move_line(table)));
    let start = Message::text(text)
        .mentioning(&table.user(Color::White))
        .mentioning(&table.user(Color::Black))
        .in_channel(&g.channel);
    let mut messages = vec![start];
    if decider {
        messages.push(
            Message::text(format!(
                "Round {} board {} was drawn, so {} and {} play a decider in #{}: colours reversed,{} and a draw sends Black ({}) through.",
                round.number,
                pairing.board,
                table.name(Color::White),
                table.name(Color::Black),
                g.channel,
                more_time(table),
                table.name(Color::Black)
            ))
            .in_channel(&event.t.channel),
        );
    }
    messages
}

/// What the decider's announcement says of White's extra time, if the game is timed.
fn more_time(table: &Table) -> String {
    match (table.base_ms(Color::White), table.base_ms(Color::Black)) {
        (Some(white), Some(black)) if white != black => format!(
            " White ({}) has more time ({} against {}),",
            table.name(Color::White),
            spell_duration(white),
            spell_duration(black)
        ),
        _ => String::new(),
    }
}

/// The current round's pairings, announced in the tournament's channel.
pub(crate) fn round_announcement(event: &Event) -> Message {
    let Some(round) = event.current() else { return Message::text("No round yet.") };
    let rounds = event.t.rounds.map_or(String::new(), |n| format!(" of {n}"));
    let text = format!(
        "{}: round {}{rounds}.\n{}",
        capital(&event.title()),
        round.number,
        pairings_lines(event, round).join("\n")
    );
    let mut message = Message::text(text);
    for p in &round.pairings {
        message = message.mentioning(&event.user(p.white));
        if let Some(black) = p.black {
            message = message.mentioning(&event.user(black));
        }
    }
    message.in_channel(&event.t.channel)
}

/// One line per board: `Board 2: alice (White) vs bob (Black) in #general-3`, with the result
/// once known; byes and forfeits say so.
pub(crate) fn pairings_lines(event: &Event, round: &Round) -> Vec<String> {
    round
        .pairings
        .iter()
        .map(|p| {
            let white = event.name(p.white);
            let Some(black) = p.black else {
                return format!("Bye: {white} ({} point{})", bye_points(p.result), plural_points(p.result));
            };
            let black = event.name(black);
            let place = event.game_of(p).map_or(String::new(), |g| format!(" in #{}", g.channel));
            let line = format!("Board {}: {white} (White) vs {black} (Black)", p.board);
            match p.result {
                None => format!("{line}{place}"),
                Some(PairingResult::WhiteWinsByForfeit) => format!("{line}: {white} wins by forfeit"),
                Some(PairingResult::BlackWinsByForfeit) => format!("{line}: {black} wins by forfeit"),
                Some(PairingResult::DoubleForfeit) => format!("{line}: both forfeit"),
                Some(result) => {
                    let decided = match (event.t.format, event.game_of(p)) {
                        (Format::Knockout, Some(g)) if g.white != p.white => " after a decider",
                        _ => "",
                    };
                    format!("{line}: {result}{decided}")
                }
            }
        })
        .collect()
}

fn plural_points(result: Option<PairingResult>) -> &'static str {
    if bye_points(result) == "1" {
        ""
    } else {
        "s"
    }
}

/// A finished round's results.
pub(crate) fn round_over(event: &Event, round: &Round) -> Message {
    Message::text(format!(
        "{}: round {} is over.\n{}",
        capital(&event.title()),
        round.number,
        pairings_lines(event, round).join("\n")
    ))
    .in_channel(&event.t.channel)
}

/// The standings, from the engine, with each player's name and whether they withdrew: what
/// `/tournament standings`, the final standings, their picture and the web page all show.
pub(crate) fn standings(event: &Event) -> Vec<StandingRow> {
    tiebreak::standings(&event.field(), &event.rounds)
        .into_iter()
        .map(|standing| {
            let withdrawn = event.entrants.iter().any(|e| e.player == standing.player && e.withdrawn_at.is_some());
            StandingRow { name: event.name(standing.player).0.to_string(), withdrawn, standing }
        })
        .collect()
}

const COLUMNS: [&str; 10] = ["Rank", "Player", "Pts", "Buchholz", "S-B", "DE", "Games", "W", "D", "L"];

/// The rows of the standings table as text cells.
fn rows(standings: &[StandingRow]) -> Vec<Vec<String>> {
    standings
        .iter()
        .map(|row| {
            let s = &row.standing;
            vec![
                s.rank.to_string(),
                format!("{}{}", row.name, if row.withdrawn { " (withdrawn)" } else { "" }),
                number(s.points),
                number(s.buchholz),
                number(s.sonneborn_berger),
                number(s.direct_encounter),
                s.games.to_string(),
                s.wins.to_string(),
                s.draws.to_string(),
                s.losses.to_string(),
            ]
        })
        .collect()
}

/// `3`, `2.5`, `6.25`: as short as exact.
pub(crate) fn number(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    // An empty sum of f64 is -0.0, and a tiny negative rounds to it: neither is a score of "-0".
    if s == "-0" { "0" } else { s }.to_string()
}

/// The standings as a monospaced table.
pub(crate) fn standings_text(standings: &[StandingRow]) -> String {
    let rows = rows(standings);
    let mut widths: Vec<usize> = COLUMNS.iter().map(|c| c.chars().count()).collect();
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<String>| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (c, w))| if i == 1 { format!("{c:<w$}") } else { format!("{c:>w$}") })
            .collect();
        padded.join("  ").trim_end().to_string()
    };
    let mut lines = vec![line(COLUMNS.iter().map(|c| c.to_string()).collect())];
    lines.extend(rows.into_iter().map(line));
    format!("```\n{}\n```", lines.join("\n"))
}

/// The standings as a picture.
pub(crate) fn standings_image(
    host: &Host,
    event: &Event,
    standings: &[StandingRow],
    final_: bool,
) -> Result<Image, Refusal> {
    let played = event.rounds.iter().filter(|r| r.finished_at.is_some()).count();
    let subtitle = format!(
        "{} after round {played}{}",
        if final_ { "Final standings" } else { "Standings" },
        event.t.rounds.map_or(String::new(), |n| format!(" of {n}"))
    );
    let table = render::StandingsTable {
        title: event.t.name.clone(),
        subtitle: format!("{subtitle}, {}", event.t.variant()?.name()),
        columns: COLUMNS.iter().map(|c| c.to_string()).collect(),
        rows: rows(standings),
    };
    let png = host.inner.renderer.standings_png(&table, host.settings().theme);
    let alt = standings
        .iter()
        .map(|s| format!("{}. {} {}", s.standing.rank, s.name, number(s.standing.points)))
        .collect::<Vec<_>>()
        .join(", ");
    Ok(Image::png(
        format!("tournament-{}-standings-{played}.png", event.t.id),
        png,
        format!("{}: {subtitle}: {alt}", event.t.name),
    ))
}

/// The standings picture of tournament `id` as stored now; `last` for the final one.
pub(crate) async fn standings_picture(host: &Host, id: TournamentId, last: bool) -> Result<Image, Refusal> {
    let event = host.store().read(move |tx| Event::load(tx, id)).await?;
    standings_image(host, &event, &standings(&event), last)
}

/// The end of a tournament: the winner and the final standings with tie-breaks (its picture is
/// [`standings_picture`]).
pub(crate) fn final_standings(event: &Event, why: Option<&str>) -> Result<Message, Refusal> {
    let standings = standings(event);
    let champion = match event.t.format {
        Format::Knockout => event
            .rounds
            .last()
            .and_then(|r| r.pairings.first())
            .and_then(super::super::pairing::knockout_winner)
            .map(|id| event.name(id).to_string()),
        _ => standings.first().map(|s| event.name(s.standing.player).to_string()),
    };
    let mut text = format!("{} is over.", capital(&event.title()));
    if let Some(why) = why {
        text.push_str(&format!(" It ends early: {why}."));
    }
    if let Some(champion) = champion {
        text.push_str(&format!(" {champion} wins!"));
    }
    text.push_str(&format!(
        " Final standings (points, then Buchholz, Sonneborn-Berger and direct encounter):\n{}",
        standings_text(&standings)
    ));
    let mut message = Message::text(text);
    for e in &event.entrants {
        message = message.mentioning(&event.user(e.player));
    }
    Ok(message.in_channel(&event.t.channel))
}

/// One line about a tournament for `/tournament list`.
pub(crate) fn list_line(event: &Event) -> Result<String, Refusal> {
    let state = match event.t.state {
        data::TournamentState::Open if event.t.starts_at == i64::MAX => "open, starts when its organiser says".into(),
        data::TournamentState::Open => format!("open, starts at {}", utc(event.t.starts_at)),
        data::TournamentState::Running => format!(
            "running, round {}{}",
            event.rounds.len(),
            event.t.rounds.map_or(String::new(), |n| format!(" of {n}"))
        ),
        state => state.to_string(),
    };
    let state = match event.paused {
        Some(_) if event.is_live() => format!("{state}, paused (`/tournament start` resumes it)"),
        _ => state,
    };
    Ok(format!(
        "{}: {}, {state}; {} player{}, organised by {}",
        event.title(),
        event.terms()?,
        event.entrants.len(),
        if event.entrants.len() == 1 { "" } else { "s" },
        event.name(event.t.organiser)
    ))
}

/// When a tournament starts, in words: `at 2026-11-22 18:00 UTC (in 2h 0m)`.
pub(crate) fn starts_in_words(starts_at: i64, now: i64) -> String {
    if starts_at == i64::MAX {
        return format!(
            "when its organiser says `{}`",
            Command::<User>::Tournament(TournamentCommand::Start { id: None })
        );
    }
    if starts_at <= now {
        return "now".into();
    }
    format!("at {} (in {})", utc(starts_at), format_duration(starts_at - now))
}

/// `2026-11-22 18:00 UTC`.
fn utc(ms: i64) -> String {
    let date = super::super::clock::pgn_date(ms).replace('.', "-");
    let minutes = ms.rem_euclid(super::super::clock::DAY_MS) / 60_000;
    format!("{date} {:02}:{:02} UTC", minutes / 60, minutes % 60)
}

/// `tournament 3 "X"` → `Tournament 3 "X"`.
pub(crate) fn capital(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

#[cfg(test)]
mod tests {
    use super::number;

    #[test]
    fn numbers_drop_trailing_zeros_and_never_show_a_negative_zero() {
        let empty: f64 = std::iter::empty::<f64>().sum();
        assert!(empty.is_sign_negative(), "the case this guards: an empty sum is -0.0");
        assert_eq!(number(empty), "0");
        assert_eq!(number(-0.001), "0");
        assert_eq!(number(0.0), "0");
        assert_eq!(number(1.5), "1.5");
        assert_eq!(number(2.25), "2.25");
        assert_eq!(number(3.0), "3");
        assert_eq!(number(-1.5), "-1.5");
    }
}
