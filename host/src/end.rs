//! How a game ends in storage: its result, its reason, and for a rated game both players'
//! new ratings, all written in the transaction that ends it.

use data::{Finish, GameResult, Player, ReadTx, WriteTx};
use rules::{Color, DrawReason, Outcome, Position, WinReason};

use super::rating::{self, Rating};
use super::stored::{self, Terms};
use super::{Typed, User};

/// A game that just ended, with what its announcement needs.
#[derive(Clone, Debug)]
pub(crate) struct Ended {
    pub game: data::Game,
    pub white: Player,
    pub black: Player,
    pub outcome: Outcome,
    /// White's then Black's rating before and after, for a rated game.
    pub ratings: Option<[(Rating, Rating); 2]>,
}

impl Ended {
    pub fn user(&self, color: Color) -> User {
        stored::user(match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        })
    }

    /// `Black wins by checkmate (bob beats alice), 0-1. Ratings: ...`
    pub fn announcement(&self) -> String {
        let mut text = match self.outcome.winner() {
            Some(winner) => {
                let (won, lost) = match winner {
                    Color::White => (&self.white, &self.black),
                    Color::Black => (&self.black, &self.white),
                };
                format!(
                    "{} ({} beats {}), {}.",
                    self.outcome,
                    Typed(&won.display_name),
                    Typed(&lost.display_name),
                    self.outcome.result()
                )
            }
            None => format!("{}, {}.", self.outcome, self.outcome.result()),
        };
        if let Some([(w0, w1), (b0, b1)]) = &self.ratings {
            text.push_str(&format!(
                " Ratings: {} {} → {}, {} {} → {}.",
                Typed(&self.white.display_name),
                w0.display(),
                w1.display(),
                Typed(&self.black.display_name),
                b0.display(),
                b1.display()
            ));
        }
        text
    }
}

/// The stored result of an outcome.
fn result_of(outcome: &Outcome) -> GameResult {
    match outcome.winner() {
        Some(Color::White) => GameResult::WhiteWins,
        Some(Color::Black) => GameResult::BlackWins,
        None => GameResult::Draw,
    }
}

/// Every way a game ends, as the stored reason says it: `/history` and `/pgn` read finished
/// games back through [`stored_outcome`], so the text of each must stay as it is.
const REASONS: [Reason; 11] = [
    Reason::Win(WinReason::Checkmate),
    Reason::Win(WinReason::RoyalCaptured),
    Reason::Win(WinReason::KingLeftAttacked),
    Reason::Win(WinReason::Resignation),
    Reason::Win(WinReason::Timeout),
    Reason::Draw(DrawReason::Stalemate),
    Reason::Draw(DrawReason::InsufficientMaterial),
    Reason::Draw(DrawReason::Repetition),
    Reason::Draw(DrawReason::FiftyMoves),
    Reason::Draw(DrawReason::Agreement),
    Reason::Draw(DrawReason::TimeoutVsInsufficientMaterial),
];

#[derive(Copy, Clone, PartialEq, Eq)]
enum Reason {
    Win(WinReason),
    Draw(DrawReason),
}

impl Reason {
    /// The stored text; a new way to end is a compile error here until it has one.
    fn text(self) -> &'static str {
        match self {
            Reason::Win(WinReason::Checkmate) => "checkmate",
            Reason::Win(WinReason::RoyalCaptured) => "ghost king captured",
            Reason::Win(WinReason::KingLeftAttacked) => "king left attacked",
            Reason::Win(WinReason::Resignation) => "resignation",
            Reason::Win(WinReason::Timeout) => "time",
            Reason::Draw(DrawReason::Stalemate) => "stalemate",
            Reason::Draw(DrawReason::InsufficientMaterial) => "insufficient material",
            Reason::Draw(DrawReason::Repetition) => "repetition",
            Reason::Draw(DrawReason::FiftyMoves) => "fifty moves",
            Reason::Draw(DrawReason::Agreement) => "agreement",
            Reason::Draw(DrawReason::TimeoutVsInsufficientMaterial) => "time, against insufficient material",
        }
    }
}

fn reason_of(outcome: &Outcome) -> &'static str {
    match *outcome {
        Outcome::Decisive { reason, .. } => Reason::Win(reason),
        Outcome::Draw(reason) => Reason::Draw(reason),
    }
    .text()
}

/// The outcome a finished game was stored with.
pub(crate) fn stored_outcome(game: &data::Game) -> Option<Outcome> {
    let reason = *REASONS.iter().find(|r| Some(r.text()) == game.reason.as_deref())?;
    match (game.result?, reason) {
        (GameResult::WhiteWins, Reason::Win(reason)) => Some(Outcome::Decisive { winner: Color::White, reason }),
        (GameResult::BlackWins, Reason::Win(reason)) => Some(Outcome::Decisive { winner: Color::Black, reason }),
        (GameResult::Draw, Reason::Draw(reason)) => Some(Outcome::Draw(reason)),
        _ => None,
    }
}

/// How `game` ends with `outcome`: the finish to store, with rating updates computed from the
/// ratings as this transaction sees them (so no other game's update can slip in between).
pub(crate) fn finish(tx: &ReadTx<'_>, game: &data::Game, outcome: Outcome) -> data::Result<(Finish, Ended)> {
    let white = tx.player(game.white)?;
    let black = tx.player(game.black)?;
    let mut updates = Vec::new();
    let mut ratings = None;
    if game.rated {
        let w0 = Rating::from_stored(tx.rating(game.white, &game.variant)?.as_ref());
        let b0 = Rating::from_stored(tx.rating(game.black, &game.variant)?.as_ref());
        let score = match outcome.winner() {
            Some(Color::White) => 1.0,
            Some(Color::Black) => 0.0,
            None => 0.5,
        };
        let (w1, b1) = rating::rate(&w0, &b0, score);
        updates = vec![w1.update(game.white, &game.variant, &w0), b1.update(game.black, &game.variant, &b0)];
        ratings = Some([(w0, w1), (b0, b1)]);
    }
    let finish = Finish { result: result_of(&outcome), reason: reason_of(&outcome).to_string(), ratings: updates };
    Ok((finish, Ended { game: game.clone(), white, black, outcome, ratings }))
}

/// Ends an active game with `outcome` now; the returned game is the finished one.
pub(crate) fn end(tx: &WriteTx<'_>, game_id: data::GameId, outcome: Outcome, now: i64) -> data::Result<Ended> {
    let game = tx.game(game_id)?;
    let (finish, mut ended) = finish(tx, &game, outcome)?;
    ended.game = tx.finish_game(game_id, &finish, now)?;
    super::arbiter::settle(tx, &ended.game)?;
    Ok(ended)
}

/// A game ended because the player to move ran out of time.
#[derive(Clone, Debug)]
pub(crate) struct Flagged {
    pub ended: Ended,
    /// Who ran out of time: they lost, or drew if the other side could not possibly have won.
    pub flagged: Color,
}

/// Ends `game_id` on time if it is still active and its deadline has passed (a move may have
/// come in since the caller looked): the player to move loses, or draws against a side that
/// could not possibly win.
pub(crate) fn end_on_time(tx: &WriteTx<'_>, game_id: data::GameId, now: i64) -> data::Result<Option<Flagged>> {
    let record = tx.game_record(game_id)?;
    let game = &record.game;
    let overdue = game.state == data::GameState::Active && game.deadline.is_some_and(|d| d <= now);
    if !overdue {
        return Ok(None);
    }
    // A record the rules cannot read has no side to move: it is logged and left for an operator.
    let Ok(variant) = game.variant() else { return Ok(None) };
    let position = match Position::from_fen(variant, record.fen()) {
        Ok(position) => position,
        Err(e) => {
            stored::unreadable(game.record(), e);
            return Ok(None);
        }
    };
    // The player to move loses, unless the other side could not possibly win: then a draw.
    let flagged = position.turn();
    let outcome = position.outcome_on_time(flagged);
    end(tx, game_id, outcome, now).map(|ended| Some(Flagged { ended, flagged }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_outcome_is_stored_with_a_reason_that_reads_back() {
        for reason in REASONS {
            let text = reason.text();
            let outcomes = match reason {
                Reason::Win(reason) => Color::ALL.map(|winner| Outcome::Decisive { winner, reason }).to_vec(),
                Reason::Draw(reason) => vec![Outcome::Draw(reason)],
            };
            for outcome in outcomes {
                assert_eq!(reason_of(&outcome), text);
                let game = data::Game {
                    id: 1,
                    platform: String::new(),
                    server: None,
                    channel: String::new(),
                    variant: "chess".into(),
                    white: 1,
                    black: 2,
                    start_fen: String::new(),
                    state: data::GameState::Finished,
                    result: Some(result_of(&outcome)),
                    reason: Some(text.to_string()),
                    time_control: None,
                    time_odds: None,
                    deadline: None,
                    rated: false,
                    pairing: None,
                    created_at: 0,
                    updated_at: 0,
                    finished_at: Some(0),
                    web_key: data::WebKey::random(),
                };
                assert_eq!(stored_outcome(&game), Some(outcome));
            }
        }
    }
}
