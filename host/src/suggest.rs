//! Suggestions for a half-typed move: what a chat's autocomplete offers while a player types
//! `/move`. Read-only, and cheap enough to answer on every keystroke.

use rules::{Position, Problem};

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
        let Some(table) = found else { return Ok(Vec::new()) };
        let to_move = table.to_move();
        let why_not = match table.color_of(user_id) {
            None => Some("You are not playing in this game".to_string()),
            Some(color) if color != to_move => Some(format!("It is {}'s move", table.name(to_move))),
            Some(_) => None,
        };
        if let Some(why_not) = why_not {
            return Ok(vec![Suggestion { label: why_not, value: typed.to_string() }]);
        }
        Ok(matching_moves(table.position(), typed, limit))
    }

    /// Whether `text`, said without a command in `channel`, is a move by the player to move
    /// there: it reads as a legal move (or as a Grolman lead with a choice to make). Chat
    /// adapters play such a message as `/move`; anything else is chat, for no one to answer.
    pub async fn is_bare_move(
        &self,
        platform: &str,
        channel: &str,
        user_id: &str,
        text: &str,
    ) -> Result<bool, HostError> {
        let found =
            self.load_active(platform, channel).await.map_err(|refusal| HostError::Broken(refusal.text().into()))?;
        let Some(table) = found else { return Ok(false) };
        if table.color_of(user_id) != Some(table.to_move()) || text.len() > 40 {
            return Ok(false);
        }
        Ok(match table.position().parse_move(text) {
            Ok(_) => true,
            Err(e) => matches!(e.problem, Problem::Ambiguous(_)),
        })
    }
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
    fn nothing_matches_nonsense() {
        assert!(matching_moves(&start(Variant::Chess), "zz9", 25).is_empty());
    }
}
