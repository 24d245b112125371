//! Coordinate move text, as Fairy-Stockfish's UCI writes it: `e2e4`, `a10a9`, `e7e8q`, a
//! Werewolf hop that takes the jumped piece as two legs `d4e5,e5f6`, castling as the king's
//! move (`e1g1`), or in Ghost King Chess as the king onto its rook (`e1h1`). A Grolman turn adds
//! its chain in parentheses: `f1f3 (g3f4 e4e5 c5e4 c2c3 b1c2)`.
//!
//! Tools that need one token per move (UCI, match harnesses) write a Grolman turn in the
//! *token form*: the lead and each chain step joined by `/`, `f1f3/g3f4/e4e5/c5e4/c2c3/b1c2`
//! ([`Position::coord_token`]). Everything that reads coordinates accepts both forms.

use crate::moves::{Move, MoveKind, Step};
use crate::position::Position;
use crate::reading::split_chain;

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

/// Splits moves written one after another into the text of each: a Grolman chain in
/// parentheses belongs to the move before it, as [`Position::coord`] writes it.
///
/// ```
/// let moves = rules::coord::split_moves("b1a3 (a1b1) b7b5 (c8b7 d8c8 e8d8) e2e4").unwrap();
/// assert_eq!(moves, ["b1a3 (a1b1)", "b7b5 (c8b7 d8c8 e8d8)", "e2e4"]);
/// assert!(rules::coord::split_moves("(a1b1) e2e4").is_err());
/// ```
pub fn split_moves(text: &str) -> Result<Vec<&str>, CoordError> {
    let syntax = |what: &str| CoordError::Syntax(what.trim().to_string());
    let mut moves: Vec<&str> = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let end = if rest.starts_with('(') {
            // A chain: it extends the move before it.
            let close = rest.find(')').ok_or_else(|| syntax(rest))?;
            let Some(lead) = moves.pop() else { return Err(syntax(&rest[..=close])) };
            let start = lead.as_ptr() as usize - text.as_ptr() as usize;
            let end = rest.as_ptr() as usize - text.as_ptr() as usize + close + 1;
            moves.push(&text[start..end]);
            close + 1
        } else {
            let word = rest.find(char::is_whitespace).unwrap_or(rest.len());
            if rest[..word].contains(['(', ')']) {
                return Err(syntax(&rest[..word]));
            }
            moves.push(&rest[..word]);
            word
        };
        rest = rest[end..].trim_start();
    }
    Ok(moves)
}

impl Position {
    /// The coordinate text of a move legal here, with its chain if it has one.
    ///
    /// ```
    /// use rules::{Position, Variant};
    ///
    /// // Castling in Ghost King Chess is the king onto its rook: `e1g1` is a teleport.
    /// let pos = Position::from_fen(Variant::GhostKing, "r3k3/8/8/8/8/8/8/4K2R w K - 0 1")?;
    /// let castle = pos.parse_move("O-O")?;
    /// assert_eq!(pos.coord(&castle), "e1h1");
    /// assert_eq!(pos.san(&pos.parse_coord("e1g1")?), "Kg1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn coord(&self, m: &Move) -> String {
        let mut out = self.coord_lead(m);
        if !m.chain.is_empty() {
            let steps: Vec<String> = m.chain.steps().iter().map(step_coord).collect();
            out.push_str(&format!(" ({})", steps.join(" ")));
        }
        out
    }

    /// The coordinate text of a move legal here as one token without spaces: a Grolman chain
    /// follows its lead move as `/`-joined steps (`e2e4/g1e2/h1g1`); any other move is written
    /// as [`Position::coord`] writes it.
    ///
    /// ```
    /// use rules::{Position, Variant};
    ///
    /// let pos = Position::start(Variant::Grolman);
    /// let turn = pos.parse_move("e4")?;
    /// assert_eq!(pos.coord_token(&turn), "e2e4/g1e2/h1g1");
    /// assert_eq!(pos.parse_coord("e2e4/g1e2/h1g1")?, turn);
    /// assert_eq!(pos.parse_move("e2e4/g1e2/h1g1")?, turn);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn coord_token(&self, m: &Move) -> String {
        let mut out = self.coord_lead(m);
        for step in m.chain.steps() {
            out.push('/');
            out.push_str(&step_coord(step));
        }
        out
    }

    fn coord_lead(&self, m: &Move) -> String {
        let mut out = match m.kind {
            MoveKind::Hop { over, .. } => format!("{}{over},{over}{}", m.from, m.to),
            MoveKind::Castle { rook } if !self.variant.castling_as_king_move() => {
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
    ///
    /// ```
    /// use rules::{CoordError, Position, Variant};
    ///
    /// let pos = Position::from_fen(Variant::UnicornGreat, "5k4/1P8/10/10/10/10/10/10/10/5K4 w - - 0 1")?;
    /// let promotion = pos.parse_coord("b9b10u")?;
    /// assert_eq!(pos.san(&promotion), "b10=U");
    /// assert_eq!(pos.parse_coord("b9b10"), Err(CoordError::Illegal("b9b10".into())));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_coord(&self, text: &str) -> Result<Move, CoordError> {
        let syntax = || CoordError::Syntax(text.trim().to_string());
        if let Some(chained) = token_to_chain(text) {
            return self.parse_coord(&chained).map_err(|e| match e {
                CoordError::Syntax(_) => syntax(),
                CoordError::Illegal(_) => CoordError::Illegal(text.trim().to_string()),
                other => other,
            });
        }
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

/// The parenthesised form of a token-form turn (`e2e4/g1e2/h1g1` to `e2e4 (g1e2 h1g1)`), or
/// `None` when `text` is not in token form.
pub(crate) fn token_to_chain(text: &str) -> Option<String> {
    let text = text.trim();
    if !text.contains('/') || text.contains(['(', ')']) || text.contains(char::is_whitespace) {
        return None;
    }
    let mut parts = text.split('/');
    let lead = parts.next()?;
    let steps: Vec<&str> = parts.collect();
    Some(format!("{lead} ({})", steps.join(" ")))
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
