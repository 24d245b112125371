//! Ratings: Glicko-2 state per player and variant. The host computes; this keeps the numbers
//! and makes sure an update is applied to the state it was computed from.

use crate::db::{ReadTx, WriteTx};
use crate::error::{Error, Result};
use crate::players::Player;
use crate::sql::{params, sql, Row};
use crate::{Millis, PlayerId};

/// Glicko-2 state on the Glicko scale (the host converts to and from Glicko-2's internal one).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    pub player: PlayerId,
    pub variant: String,
    pub glicko: Glicko,
    /// Rated games that have updated this rating.
    pub games: i64,
    pub updated_at: Millis,
}

/// A rating after one more rated game.
///
/// `games_before` is the game count of the rating the new value was computed from (0 for a
/// player without one): if another game was rated in between, the update is refused with
/// `RatingConflict`, and the host reads the rating again and recomputes, rather than one
/// result silently overwriting the other.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingUpdate {
    pub player: PlayerId,
    pub variant: String,
    pub games_before: i64,
    pub glicko: Glicko,
}

impl Rating {
    /// From the row's columns `first..first + 7`, as `columns!` lists them.
    fn from_row_at(row: &Row<'_, '_>, first: usize) -> Result<Rating> {
        Ok(Rating {
            player: row.get(first)?,
            variant: row.get(first + 1)?,
            glicko: Glicko {
                rating: row.get(first + 2)?,
                deviation: row.get(first + 3)?,
                volatility: row.get(first + 4)?,
            },
            games: row.get(first + 5)?,
            updated_at: row.get(first + 6)?,
        })
    }

    fn from_row(row: &Row<'_, '_>) -> Result<Rating> {
        Rating::from_row_at(row, 0)
    }
}

/// The columns `Rating::from_row` reads, in its order.
macro_rules! columns {
    () => {
        "player_id, variant, rating, deviation, volatility, games, updated_at"
    };
}

impl ReadTx<'_> {
    /// The player's rating in a variant; `None` until their first rated game in it.
    pub fn rating(&self, player: PlayerId, variant: &str) -> Result<Option<Rating>> {
        self.conn().query_opt(
            sql!("SELECT ", columns!(), " FROM ratings WHERE player_id = $1 AND variant = $2"),
            params![player, variant],
            Rating::from_row,
        )
    }

    /// Every rating of a player, by variant id.
    pub fn ratings_of(&self, player: PlayerId) -> Result<Vec<Rating>> {
        self.conn().query(
            sql!("SELECT ", columns!(), " FROM ratings WHERE player_id = $1 ORDER BY variant"),
            params![player],
            Rating::from_row,
        )
    }

    /// The best `limit` players of a platform in a variant, among those with at least
    /// `min_games` rated games, highest rating first.
    pub fn leaderboard(
        &self,
        platform: &str,
        variant: &str,
        min_games: i64,
        limit: u32,
    ) -> Result<Vec<(Player, Rating)>> {
        self.conn().query(
            sql!(
                "SELECT r.player_id, r.variant, r.rating, r.deviation, r.volatility, r.games,
                        r.updated_at, p.id, p.platform, p.user_id, p.display_name, p.created_at,
                        p.updated_at
                 FROM ratings r JOIN players p ON p.id = r.player_id
                 WHERE r.variant = $1 AND p.platform = $2 AND r.games >= $3
                 ORDER BY r.rating DESC, r.player_id
                 LIMIT $4"
            ),
            params![variant, platform, min_games, limit],
            |row| Ok((Player::from_row_at(row, 7)?, Rating::from_row_at(row, 0)?)),
        )
    }
}

impl WriteTx<'_> {
    /// Applies a rating update (see [`RatingUpdate`]): the rating becomes `update.glicko` with
    /// one more game.
    pub fn update_rating(&self, update: &RatingUpdate, now: Millis) -> Result<Rating> {
        let games = self.rating(update.player, &update.variant)?.map_or(0, |r| r.games);
        if games != update.games_before {
            return Err(Error::RatingConflict {
                player: update.player,
                variant: update.variant.clone(),
                expected: update.games_before,
                actual: games,
            });
        }
        let Glicko { rating, deviation, volatility } = update.glicko;
        self.conn().query_one(
            sql!(
                "INSERT INTO ratings (player_id, variant, rating, deviation, volatility, games,
                     updated_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)
                 ON CONFLICT (player_id, variant) DO UPDATE SET rating = excluded.rating,
                     deviation = excluded.deviation, volatility = excluded.volatility,
                     games = excluded.games, updated_at = excluded.updated_at
                 RETURNING ",
                columns!()
            ),
            params![update.player, update.variant, rating, deviation, volatility, games + 1, now],
            Rating::from_row,
        )
    }
}
