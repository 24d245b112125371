//! Coordinate move text, as Fairy-Stockfish's UCI writes it: `e2e4`, `a10a9`, `e7e8q`, a
//! Werewolf hop that takes the jumped piece as two legs `d4e5,e5f6`, castling as the king's
//! move (`e1g1`), or in Ghost King Chess as the king onto its rook (`e1h1`).

use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::variant::Variant;

/// Why a coordinate move was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CoordError {
    #[error("`{0}` is not a coordinate move (like e2e4, e7e8q or d4e5,e5f6)")]
    Syntax(String),
    #[error("{0} is not a legal move here")]
    Illegal(String),
}

impl Position {
    /// The coordinate text of a move legal here.
    pub fn coord(&self, m: &Move) -> String {
        let mut out = match m.kind {
            MoveKind::Hop { over, .. } => format!("{}{over},{over}{}", m.from, m.to),
            MoveKind::Castle { rook } if self.variant == Variant::GhostKing => {
                format!("{}{rook}", m.from)
            }
            _ => format!("{}{}", m.from, m.to),
        };
        if let Some(p) = m.promotion {
            out.push(p.lower_char());
        }
        out
    }

    /// Reads a coordinate move (`e2e4`, `e2-e4`, `E7E8Q`) and finds it among the legal moves.
    pub fn parse_coord(&self, text: &str) -> Result<Move, CoordError> {
        let norm: String =
            text.trim().chars().filter(|c| !matches!(c, '-' | ' ')).map(|c| c.to_ascii_lowercase()).collect();
        if !looks_like_coord(&norm) {
            return Err(CoordError::Syntax(text.trim().to_string()));
        }
        let legal = self.legal_moves();
        if let Some(m) = legal.iter().find(|m| self.coord(m) == norm) {
            return Ok(*m);
        }
        // Castling typed as the king onto its rook, outside Ghost King Chess where that is the
        // only way to write it.
        legal
            .iter()
            .find(|m| matches!(m.kind, MoveKind::Castle { rook } if format!("{}{rook}", m.from) == norm))
            .copied()
            .ok_or(CoordError::Illegal(norm))
    }
}

fn looks_like_coord(s: &str) -> bool {
    s.split(',').all(|leg| {
        let Some((_, rest)) = crate::square::split_square(leg) else {
            return false;
        };
        let Some((_, rest)) = crate::square::split_square(rest) else {
            return false;
        };
        rest.is_empty() || (rest.len() == 1 && rest.chars().all(|c| c.is_ascii_alphabetic()))
    }) && !s.is_empty()
}
