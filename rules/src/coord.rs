//! Coordinate move text, as Fairy-Stockfish's UCI writes it: `e2e4`, `a10a9`, `e7e8q`, a
//! Werewolf hop that takes the jumped piece as two legs `d4e5,e5f6`, castling as the king's
//! move (`e1g1`), or in Ghost King Chess as the king onto its rook (`e1h1`). A Grolman turn adds
//! its chain in parentheses: `f1f3 (g3f4 e4e5 c5e4 c2c3 b1c2)`.

use crate::moves::{Move, MoveKind, Step};
use crate::position::Position;
use crate::reading::split_chain;
use crate::variant::Variant;

/// Why a coordinate move was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CoordError {
    #[error("`{0}` is not a coordinate move (like e2e4, e7e8q or d4e5,e5f6)")]
    Syntax(String),
    #[error("{0} is not a legal move here")]
    Illegal(String),
    #[error("{text} starts more than one turn; give its chain: {}", .turns.join(", "))]
    Ambiguous { text: String, turns: Vec<String> },
}

impl Position {
    /// The coordinate text of a move legal here, with its chain if it has one.
    pub fn coord(&self, m: &Move) -> String {
        let mut out = self.coord_lead(m);
        if !m.chain.is_empty() {
            let steps: Vec<String> = m.chain.steps().iter().map(step_coord).collect();
            out.push_str(&format!(" ({})", steps.join(" ")));
        }
        out
    }

    fn coord_lead(&self, m: &Move) -> String {
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

    /// Reads a coordinate move (`e2e4`, `e2-e4`, `E7E8Q`, `f1f3 (g3f4 e4e5)`) and finds it
    /// among the legal moves. A Grolman lead move alone is enough when it starts one turn only.
    pub fn parse_coord(&self, text: &str) -> Result<Move, CoordError> {
        let syntax = || CoordError::Syntax(text.trim().to_string());
        let (lead, chain) = split_chain(text).map_err(|_| syntax())?;
        let lead = normalize(lead);
        if !looks_like_coord(&lead) {
            return Err(syntax());
        }
        let chain: Option<Vec<String>> = chain.map(|c| c.split_whitespace().map(normalize).collect());
        let legal = self.legal_moves();
        let leads: Vec<&Move> = legal.iter().filter(|m| self.coord_fits(m, &lead)).collect();
        let turns: Vec<&Move> = match &chain {
            None => leads,
            Some(steps) => {
                leads.into_iter().filter(|m| m.chain.steps().iter().map(step_coord).eq(steps.iter().cloned())).collect()
            }
        };
        match turns[..] {
            [m] => Ok(*m),
            [] => Err(CoordError::Illegal(text.trim().to_string())),
            _ => Err(CoordError::Ambiguous { text: lead, turns: turns.iter().map(|m| self.coord(m)).collect() }),
        }
    }

    /// Whether `lead` is `m`'s lead move; castling may also be typed as the king onto its rook
    /// outside Ghost King Chess, where that is the only way to write it.
    fn coord_fits(&self, m: &Move, lead: &str) -> bool {
        self.coord_lead(m) == lead || matches!(m.kind, MoveKind::Castle { rook } if format!("{}{rook}", m.from) == lead)
    }
}

fn step_coord(step: &Step) -> String {
    let mut out = format!("{}{}", step.from, step.to);
    if let Some(p) = step.promotion {
        out.push(p.lower_char());
    }
    out
}

fn normalize(text: &str) -> String {
    text.trim().chars().filter(|c| !matches!(c, '-' | ' ')).map(|c| c.to_ascii_lowercase()).collect()
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
