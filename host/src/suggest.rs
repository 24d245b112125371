//! Suggestions for a half-typed move: what a chat's autocomplete offers while a player types
//! `/move`. Read-only, and cheap enough to answer on every keystroke.

use rules::{Position, Problem};

use super::puzzles::command::Answers;
use super::{Host, HostError};

/// One suggestion: what the player sees, and the move text it submits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suggestion {
    pub label: String,
    pub value: String,
}

impl Host {
    /// At most `limit` legal moves of the game in `channel` that match `typed`, for the user
    /// `user_id`. Someone who may not move now gets one suggestion saying why, whose value is
    /// what they typed, so submitting it gets the full explanation; with no game, nothing.
    pub async fn suggest_moves(
        &self,
        platform: &str,
        channel: &str,
        user_id: &str,
        typed: &str,
        limit: usize,
    ) -> Result<Vec<Suggestion>, HostError> {
        let found =
            self.load_active(platform, channel).await.map_err(|refusal| HostError::Broken(refusal.text().into()))?;
        // Someone who does not play here, with a puzzle open here (or the channel's daily puzzle
        // to try), is answering it.
        if found.as_ref().is_none_or(|t| t.color_of(user_id).is_none()) {
            if let Some(position) = self.puzzle_position(platform, channel, user_id, Answers::OpenOrDaily).await? {
                return Ok(matching_moves(&position, typed, limit));
            }
        }
        let Some(table) = found else { return Ok(Vec::new()) };
        let to_move = table.to_move();
        let why_not = match table.color_of(user_id) {
            None => Some("You are not playing in this game".to_string()),
            Some(color) if color != to_move => Some(format!("It is {}'s move", table.name(to_move).0)),
            Some(_) => None,
        };
        if let Some(why_not) = why_not {
            return Ok(vec![Suggestion { label: why_not, value: typed.to_string() }]);
        }
        Ok(matching_moves(table.position(), typed, limit))
    }

    async fn puzzle_position(
        &self,
        platform: &str,
        channel: &str,
        user_id: &str,
        answers: Answers,
    ) -> Result<Option<Position>, HostError> {
        self.open_puzzle_position(platform, channel, user_id, answers)
            .await
            .map_err(|refusal| HostError::Broken(refusal.text().into()))
    }

    /// Whether `text`, said without a command in `channel`, is a move by the player to move
    /// there (or an answer to the speaker's open puzzle there, when they do not play the
    /// channel's game): it reads as a legal move (or as a Grolman lead with a choice to make). Chat
    /// adapters play such a message as `/move`; anything else is chat, for no one to answer.
    /// Most chat is told apart by its characters alone ([`could_be_move`]), before the game is
    /// loaded and replayed: a busy room costs the database nothing.
    pub async fn is_bare_move(
        &self,
        platform: &str,
        channel: &str,
        user_id: &str,
        text: &str,
    ) -> Result<bool, HostError> {
        if !could_be_move(text) {
            return Ok(false);
        }
        let found =
            self.load_active(platform, channel).await.map_err(|refusal| HostError::Broken(refusal.text().into()))?;
        let position = match found {
            Some(table) if table.color_of(user_id).is_some() => {
                if table.color_of(user_id) != Some(table.to_move()) {
                    return Ok(false);
                }
                table.position().clone()
            }
            // Someone who does not play here answers their open puzzle here, if they have one; a
            // plain message never opens one (not even the daily puzzle's: chat is not an answer).
            _ => match self.puzzle_position(platform, channel, user_id, Answers::Open).await? {
                Some(position) => position,
                None => return Ok(false),
            },
        };
        if text.len() > BARE_MOVE_LENGTH {
            return Ok(false);
        }
        Ok(match position.parse_move(text) {
            Ok(_) => true,
            Err(e) => matches!(e.problem, Problem::Ambiguous(_)),
        })
    }
}

/// The longest text read as a bare move (a Grolman turn with its chain fits).
const BARE_MOVE_LENGTH: usize = 40;

/// Whether `text` could be a move of some variant by its characters alone: short, plain ASCII,
/// and naming a square (a rank's digit) or castling (`O-O`, `oo`, `0-0-0`). Every move the
/// rules read passes; most chat ("good luck!", "gg", "thanks 🙂") does not, and is not looked
/// at further.
pub(crate) fn could_be_move(text: &str) -> bool {
    let text = text.trim();
    if text.is_empty()
        || text.len() > BARE_MOVE_LENGTH
        || !text.is_ascii()
        || text.chars().any(|c| c.is_ascii_control())
    {
        return false;
    }
    if text.chars().any(|c| c.is_ascii_digit()) {
        return true;
    }
    let castle: String = text
        .chars()
        .filter(|c| !matches!(c, '-' | '+' | '#' | '!' | '?' | ' '))
        .flat_map(|c| c.to_lowercase())
        .collect();
    castle == "oo" || castle == "ooo"
}

/// The legal moves whose SAN or coordinate form starts with `typed`, compared without case,
/// capture marks, check marks or dashes, so `nf3`, `Nf3`, `g1f3` and `g1-f3` all find Nf3.
/// SAN comes first in the generator's order; the label shows both forms.
pub fn matching_moves(position: &Position, typed: &str, limit: usize) -> Vec<Suggestion> {
    let wanted = simplify(typed);
    position
        .legal_moves()
        .iter()
        .map(|m| (position.san(m), position.coord(m)))
        .filter(|(san, coord)| simplify(san).starts_with(&wanted) || simplify(coord).starts_with(&wanted))
        .take(limit)
        .map(|(san, coord)| Suggestion { label: format!("{san}  ({coord})"), value: san })
        .collect()
}

fn simplify(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, 'x' | 'X' | ':' | '+' | '#' | '-' | ' ' | ','))
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use rules::Variant;

    use super::*;

    fn start(variant: Variant) -> Position {
        Position::start(variant)
    }

    #[test]
    fn san_and_coordinates_find_the_same_move() {
        let position = start(Variant::Chess);
        let by_san: Vec<String> = matching_moves(&position, "nf", 25).into_iter().map(|s| s.value).collect();
        assert_eq!(by_san, ["Nf3"]);
        let by_coord: Vec<String> = matching_moves(&position, "g1-f", 25).into_iter().map(|s| s.value).collect();
        assert_eq!(by_coord, ["Nf3"]);
    }

    #[test]
    fn every_suggestion_is_legal_and_the_limit_holds() {
        for variant in Variant::ALL {
            let position = start(variant);
            let all = matching_moves(&position, "", 25);
            assert_eq!(all.len(), position.legal_moves().len().min(25), "{variant:?}");
            for suggestion in all {
                assert!(position.parse_move(&suggestion.value).is_ok(), "{variant:?}: {}", suggestion.value);
            }
        }
    }

    #[test]
    fn every_legal_move_could_be_a_move_and_chat_could_not() {
        for variant in Variant::ALL {
            // The start, and a position a few moves on, where captures and castling come up.
            let mut game = rules::Game::new(start(variant));
            for _ in 0..12 {
                let position = game.position().clone();
                for m in position.legal_moves().iter() {
                    for text in [position.san(m), position.coord(m)] {
                        assert!(could_be_move(&text), "{variant:?}: {text}");
                    }
                }
                let Some(&first) = position.legal_moves().iter().last() else { break };
                game.play(first).unwrap();
            }
        }
        for text in ["O-O", "oo", "0-0-0", "O-O-O+", "e4", "Nf3 (Ne5, Rg1)", " e2e4 "] {
            assert!(could_be_move(text), "{text}");
        }
        for text in ["", "gg", "good luck!", "thanks 🙂", "well played, really", "x".repeat(41).as_str()] {
            assert!(!could_be_move(text), "{text}");
        }
    }

    #[test]
    fn nothing_matches_nonsense() {
        assert!(matching_moves(&start(Variant::Chess), "zz9", 25).is_empty());
    }
}
