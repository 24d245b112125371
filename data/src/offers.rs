//! Standing draw and takeback offers, at most one of each kind per side of a game.

use rusqlite::{params, Row};

use crate::db::{ReadTx, WriteTx};
use crate::error::Result;
use crate::games::Color;
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
    fn from_row(row: &Row<'_>) -> rusqlite::Result<Offer> {
        let proposal = match row.get("kind")? {
            OfferKind::Draw => Proposal::Draw,
            OfferKind::Takeback => Proposal::Takeback { plies: row.get("plies")? },
        };
        Ok(Offer { proposal, by: row.get("by_color")?, at_ply: row.get("at_ply")?, created_at: row.get("created_at")? })
    }
}

impl ReadTx<'_> {
    /// The standing offers of a game, oldest first.
    pub fn offers(&self, game_id: GameId) -> Result<Vec<Offer>> {
        let mut stmt = self.conn().prepare_cached(
            "SELECT kind, by_color, plies, at_ply, created_at FROM offers
             WHERE game_id = ?1 ORDER BY created_at, kind, by_color",
        )?;
        let offers = stmt.query_map([game_id], Offer::from_row)?;
        Ok(offers.collect::<rusqlite::Result<_>>()?)
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
        self.conn()
            .prepare_cached(
                "INSERT OR REPLACE INTO offers (game_id, kind, by_color, plies, at_ply, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![game_id, proposal.kind(), by, plies, at_ply, now])?;
        Ok(Offer { proposal, by, at_ply, created_at: now })
    }

    /// Withdraws the offers of one kind (both sides'), or all of them; returns how many went.
    pub fn clear_offers(&self, game_id: GameId, kind: Option<OfferKind>) -> Result<usize> {
        Ok(self
            .conn()
            .prepare_cached("DELETE FROM offers WHERE game_id = ?1 AND (?2 IS NULL OR kind = ?2)")?
            .execute(params![game_id, kind])?)
    }
}
