//! Glicko-2 ratings, one per player and variant, updated game by game (`skillratings`); and
//! puzzle ratings, one per player and variant and one per puzzle, updated attempt by attempt.

use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// A player's Glicko-2 state in one variant.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: u32,
}

impl Default for Rating {
    fn default() -> Rating {
        let fresh = Glicko2Rating::new();
        Rating { rating: fresh.rating, deviation: fresh.deviation, volatility: fresh.volatility, games: 0 }
    }
}

impl Rating {
    /// Few games, or a long break: the rating is a guess (shown with a `?`, as lichess does).
    pub fn is_provisional(&self) -> bool {
        self.deviation > 110.0
    }

    /// `1623` or `1500?`.
    pub fn display(&self) -> String {
        format!("{:.0}{}", self.rating, if self.is_provisional() { "?" } else { "" })
    }

    /// A stored rating; a player without one has the default.
    pub fn from_stored(stored: Option<&data::Rating>) -> Rating {
        stored.map_or_else(Rating::default, |r| Rating {
            rating: r.glicko.rating,
            deviation: r.glicko.deviation,
            volatility: r.glicko.volatility,
            games: r.games as u32,
        })
    }

    /// The update that stores this rating, computed from `before`.
    pub fn update(&self, player: data::PlayerId, variant: &str, before: &Rating) -> data::RatingUpdate {
        data::RatingUpdate {
            player,
            variant: variant.to_string(),
            games_before: i64::from(before.games),
            glicko: data::Glicko { rating: self.rating, deviation: self.deviation, volatility: self.volatility },
        }
    }

    /// A stored Glicko state after `games` games (or attempts).
    pub fn of(glicko: data::Glicko, games: i64) -> Rating {
        let games = u32::try_from(games).unwrap_or(u32::MAX);
        Rating { rating: glicko.rating, deviation: glicko.deviation, volatility: glicko.volatility, games }
    }

    /// The Glicko state as the store keeps it.
    pub fn stored(&self) -> data::Glicko {
        data::Glicko { rating: self.rating, deviation: self.deviation, volatility: self.volatility }
    }

    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating { rating: self.rating, deviation: self.deviation, volatility: self.volatility }
    }

    fn after(&self, g: Glicko2Rating) -> Rating {
        Rating { rating: g.rating, deviation: g.deviation, volatility: g.volatility, games: self.games + 1 }
    }
}

/// Both players' ratings after a game; `white_score` is 1, 0.5 or 0.
pub fn rate(white: &Rating, black: &Rating, white_score: f64) -> (Rating, Rating) {
    let outcome = if white_score > 0.75 {
        Outcomes::WIN
    } else if white_score < 0.25 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    };
    let (w, b) = glicko2(&white.glicko(), &black.glicko(), &outcome, &Glicko2Config::new());
    (white.after(w), black.after(b))
}

/// A player's and a puzzle's ratings after an attempt: the puzzle is the player's opponent in
/// a game of one result, won by the player when they solved it (as lichess rates puzzles).
pub fn rate_puzzle(player: &Rating, puzzle: &Rating, solved: bool) -> (Rating, Rating) {
    let outcome = if solved { Outcomes::WIN } else { Outcomes::LOSS };
    let (p, q) = glicko2(&player.glicko(), &puzzle.glicko(), &outcome, &Glicko2Config::new());
    (player.after(p), puzzle.after(q))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_moves_ratings_apart_and_a_draw_between_equals_changes_little() {
        let fresh = Rating::default();
        let (w, b) = rate(&fresh, &fresh, 1.0);
        assert!(w.rating > 1500.0 && b.rating < 1500.0);
        assert!((w.rating - 1500.0 + b.rating - 1500.0).abs() < 1e-6, "symmetric for equal players");
        assert_eq!((w.games, b.games), (1, 1));
        assert!(w.deviation < fresh.deviation);
        let (w, b) = rate(&fresh, &fresh, 0.5);
        assert!((w.rating - 1500.0).abs() < 1e-6 && (b.rating - 1500.0).abs() < 1e-6);
    }

    #[test]
    fn provisional_until_the_deviation_settles() {
        assert_eq!(Rating::default().display(), "1500?");
        let settled = Rating { rating: 1712.4, deviation: 60.0, volatility: 0.06, games: 40 };
        assert_eq!(settled.display(), "1712");
    }
}
