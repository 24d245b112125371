//! Standing draw and takeback offers, at most one of each kind per side of a game.

use crate::db::{ReadTx, WriteTx};
use crate::error::Result;
use crate::games::Color;
use crate::sql::{params, sql, Row};
use crate::text::text_enum;
use crate::{GameId, Millis};

text_enum! {
    pub enum OfferKind ("offer kind") {
        Draw => "draw",
        Takeback => "takeback",
    }
}

/// What is offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proposal {
    Draw,
    /// Take back the last `plies` plies.
    Takeback {
        plies: u32,
    },
}

impl Proposal {
    pub fn kind(self) -> OfferKind {
        match self {
            Proposal::Draw => OfferKind::Draw,
            Proposal::Takeback { .. } => OfferKind::Takeback,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offer {
    pub proposal: Proposal,
    pub by: Color,
    /// Plies played when the offer was made: a takeback offer made at another ply is stale.
    pub at_ply: u32,
    pub created_at: Millis,
}

impl Offer {
    /// From a row of `kind, by_color, plies, at_ply, created_at`.
    fn from_row(row: &Row<'_, '_>) -> Result<Offer> {
        let proposal = match row.get(0)? {
            OfferKind::Draw => Proposal::Draw,
            OfferKind::Takeback => Proposal::Takeback { plies: row.get(2)? },
        };
        Ok(Offer { proposal, by: row.get(1)?, at_ply: row.get(3)?, created_at: row.get(4)? })
    }
}

impl ReadTx<'_> {
    /// The standing offers of a game, oldest first.
    pub fn offers(&self, game_id: GameId) -> Result<Vec<Offer>> {
        self.conn().query(
            sql!(
                "SELECT kind, by_color, plies, at_ply, created_at FROM offers
                 WHERE game_id = $1 ORDER BY created_at, kind, by_color"
            ),
            params![game_id],
            Offer::from_row,
        )
    }
}

impl WriteTx<'_> {
    /// Records an offer by `by` in an active game, replacing their earlier offer of that kind.
    pub fn make_offer(&self, game_id: GameId, by: Color, proposal: Proposal, now: Millis) -> Result<Offer> {
        self.active(game_id)?;
        let at_ply = self.ply_count(game_id)?;
        let plies = match proposal {
            Proposal::Draw => None,
            Proposal::Takeback { plies } => Some(plies),
        };
        self.conn().execute(
            sql!(
                "INSERT INTO offers (game_id, kind, by_color, plies, at_ply, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (game_id, kind, by_color) DO UPDATE
                 SET plies = excluded.plies, at_ply = excluded.at_ply, created_at = excluded.created_at"
            ),
            params![game_id, proposal.kind(), by, plies, at_ply, now],
        )?;
        Ok(Offer { proposal, by, at_ply, created_at: now })
    }

    /// Withdraws the offers of one kind (both sides'), or all of them; returns how many went.
    pub fn clear_offers(&self, game_id: GameId, kind: Option<OfferKind>) -> Result<usize> {
        let cleared = match kind {
            Some(kind) => self
                .conn()
                .execute(sql!("DELETE FROM offers WHERE game_id = $1 AND kind = $2"), params![game_id, kind])?,
            None => self.conn().execute(sql!("DELETE FROM offers WHERE game_id = $1"), params![game_id])?,
        };
        Ok(cleared as usize)
    }
}
