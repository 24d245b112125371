//! [`Setup`]: a position as written, unchecked; FEN reading and writing.

use std::fmt::Write as _;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::role::{Color, Piece};
use crate::square::Square;
use crate::variants::Variant;

/// Everything a FEN says, before any rule has looked at it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    pub board: Board,
    pub turn: Color,
    /// Rook squares whose castling right is still held.
    pub castling: Bitboard,
    pub ep_square: Option<Square>,
    pub halfmoves: u32,
    pub fullmoves: u32,
    /// Golem Chess: the previous turn captured a Golem-kind piece of the side to move.
    pub golem_captured: bool,
}

/// What is wrong with a FEN text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("the FEN is empty")]
    Empty,
    #[error("rank {rank} of the FEN holds {found} squares; a {variant} board is {width} wide")]
    RankWidth { rank: u8, found: u32, width: u8, variant: Variant },
    #[error("the FEN has {found} rank{}; a {variant} board has {height}", if *found == 1 { "" } else { "s" })]
    RankCount { found: usize, height: u8, variant: Variant },
    #[error("`{0}` is not a piece of {1}")]
    Piece(char, Variant),
    #[error("`{0}` is not a side to move (w or b)")]
    Turn(String),
    #[error("`{0}` is not a castling field (K, Q, k, q or -)")]
    Castling(String),
    #[error("`{0}` is not an en passant square (a square, or -)")]
    EnPassant(String),
    #[error("`{0}` is not a move count")]
    Count(String),
    #[error("`{0}` is not a Golem Chess seventh field (g, or nothing)")]
    GolemField(String),
    #[error("the FEN has {0} fields; it takes at most 7")]
    TooManyFields(usize),
}

impl Setup {
    /// The variant's starting position.
    pub fn start(variant: Variant) -> Setup {
        Setup::from_fen(variant, variant.start_fen()).expect("start FEN is valid")
    }

    /// Reads a FEN. Missing trailing fields take their defaults (`w - - 0 1`).
    ///
    /// ```
    /// use rules::{FenError, Setup, Variant};
    ///
    /// // Golem Chess: the seventh field `g` says the last turn captured a Golem-kind piece.
    /// let fen = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBGKBNR b KQkq - 0 1 g";
    /// let setup = Setup::from_fen(Variant::Golem, fen)?;
    /// assert!(setup.golem_captured);
    /// assert_eq!(setup.to_fen(Variant::Golem), fen);
    ///
    /// // Only the board is required.
    /// let setup = Setup::from_fen(Variant::Chess, "4k3/8/8/8/8/8/8/4K3")?;
    /// assert_eq!(setup.to_fen(Variant::Chess), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    ///
    /// let err = Setup::from_fen(Variant::Werewolf, "4k3/8/8/8/8/8/8/3QK3").unwrap_err();
    /// assert_eq!(err, FenError::Piece('Q', Variant::Werewolf));
    /// assert_eq!(err.to_string(), "`Q` is not a piece of werewolf");
    /// # Ok::<(), FenError>(())
    /// ```
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Setup, FenError> {
        let geo = variant.geometry();
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if fields.len() > 7 {
            return Err(FenError::TooManyFields(fields.len()));
        }
        let placement = fields[0].trim_end_matches(['[', ']']);
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != geo.height as usize {
            return Err(FenError::RankCount { found: rows.len(), height: geo.height, variant });
        }
        let mut board = Board::empty();
        for (i, row) in rows.iter().enumerate() {
            let rank = geo.height - 1 - i as u8;
            let mut file: u32 = 0;
            let mut run: u32 = 0;
            let flush = |run: &mut u32, file: &mut u32| {
                *file += *run;
                *run = 0;
            };
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    run = run * 10 + d;
                    if run > 99 {
                        return Err(FenError::RankWidth { rank: rank + 1, found: run, width: geo.width, variant });
                    }
                    continue;
                }
                flush(&mut run, &mut file);
                let role = variant.role_for_char(c).ok_or(FenError::Piece(c, variant))?;
                let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
                if file >= geo.width as u32 {
                    return Err(FenError::RankWidth { rank: rank + 1, found: file + 1, width: geo.width, variant });
                }
                let sq = Square::new(file as u8, rank).expect("inside the frame");
                board.set(sq, Piece::new(color, role));
                file += 1;
            }
            flush(&mut run, &mut file);
            if file != geo.width as u32 {
                return Err(FenError::RankWidth { rank: rank + 1, found: file, width: geo.width, variant });
            }
        }

        let turn = match fields.get(1).copied() {
            None | Some("w") | Some("W") => Color::White,
            Some("b") | Some("B") => Color::Black,
            Some(t) => return Err(FenError::Turn(t.to_string())),
        };
        let castling = match fields.get(2).copied() {
            None | Some("-") => Bitboard::EMPTY,
            Some(text) => parse_castling(variant, text)?,
        };
        let ep_square = match fields.get(3).copied() {
            None | Some("-") => None,
            Some(text) => Some(
                text.parse::<Square>()
                    .ok()
                    .filter(|&sq| geo.contains(sq))
                    .ok_or_else(|| FenError::EnPassant(text.to_string()))?,
            ),
        };
        let count = |i: usize, default: u32| -> Result<u32, FenError> {
            fields.get(i).map_or(Ok(default), |t| {
                t.parse::<u32>().ok().filter(|&n| n < 1_000_000).ok_or_else(|| FenError::Count(t.to_string()))
            })
        };
        let halfmoves = count(4, 0)?;
        let fullmoves = count(5, 1)?.max(1);
        let golem_captured = match fields.get(6).copied() {
            None | Some("-") => false,
            Some("g") => true,
            Some(t) => return Err(FenError::GolemField(t.to_string())),
        };
        Ok(Setup { board, turn, castling, ep_square, halfmoves, fullmoves, golem_captured })
    }

    /// Writes the FEN (the seventh field only when it is set).
    pub fn to_fen(&self, variant: Variant) -> String {
        let geo = variant.geometry();
        let mut out = String::with_capacity(90);
        for rank in (0..geo.height).rev() {
            let mut empty = 0;
            for file in 0..geo.width {
                let sq = Square::new(file, rank).expect("inside the frame");
                match self.board.piece_at(sq) {
                    Some(p) => {
                        if empty > 0 {
                            write!(out, "{empty}").expect("write to string");
                            empty = 0;
                        }
                        out.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(out, "{empty}").expect("write to string");
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(self.turn.fen_char());
        out.push(' ');
        out.push_str(&castling_text(variant, self.castling));
        out.push(' ');
        match self.ep_square {
            Some(sq) => write!(out, "{sq}").expect("write to string"),
            None => out.push('-'),
        }
        write!(out, " {} {}", self.halfmoves, self.fullmoves).expect("write to string");
        if self.golem_captured {
            out.push_str(" g");
        }
        out
    }
}

fn parse_castling(variant: Variant, text: &str) -> Result<Bitboard, FenError> {
    let err = || FenError::Castling(text.to_string());
    let Some(files) = variant.castling_files() else {
        // Grolman Chess has no castling: a FIDE castling field is accepted and means nothing.
        return if text.chars().all(|c| "KQkq".contains(c)) { Ok(Bitboard::EMPTY) } else { Err(err()) };
    };
    let geo = variant.geometry();
    let mut rights = Bitboard::EMPTY;
    for c in text.chars() {
        let (color, side) = match c {
            'K' => (Color::White, 0),
            'Q' => (Color::White, 1),
            'k' => (Color::Black, 0),
            'q' => (Color::Black, 1),
            _ => return Err(err()),
        };
        let sq = Square::new(files.rook[side], geo.back_rank(color)).expect("inside the frame");
        rights = rights.with(sq);
    }
    Ok(rights)
}

fn castling_text(variant: Variant, rights: Bitboard) -> String {
    let (Some(files), geo) = (variant.castling_files(), variant.geometry()) else {
        return "-".to_string();
    };
    let mut out = String::new();
    for (color, letters) in [(Color::White, ['K', 'Q']), (Color::Black, ['k', 'q'])] {
        for (side, letter) in letters.into_iter().enumerate() {
            let sq = Square::new(files.rook[side], geo.back_rank(color)).expect("inside the frame");
            if rights.contains(sq) {
                out.push(letter);
            }
        }
    }
    if out.is_empty() {
        out.push('-');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_round_trip() {
        for v in Variant::ALL {
            let setup = Setup::start(v);
            assert_eq!(setup.to_fen(v), v.start_fen());
        }
    }

    #[test]
    fn errors_name_the_problem() {
        let e = Setup::from_fen(Variant::Chess, "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(e, Err(FenError::RankWidth { rank: 6, found: 9, width: 8, variant: Variant::Chess }));
        let e = Setup::from_fen(Variant::Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBWKBNR w KQkq - 0 1");
        assert_eq!(e, Err(FenError::Piece('W', Variant::Chess)));
        let e = Setup::from_fen(Variant::Chess, "8/8/8/8/8/8/8 w - - 0 1");
        assert!(matches!(e, Err(FenError::RankCount { found: 7, .. })));
        assert!(Setup::from_fen(Variant::Chess, "8/8/8/8/8/8/8/8 x").is_err());
        assert!(Setup::from_fen(Variant::Golem, "8/8/8/8/8/8/8/8 w - - 0 1 q").is_err());
    }

    #[test]
    fn golem_field_round_trips() {
        let fen = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBGKBNR b KQkq - 0 1 g";
        assert_eq!(Setup::from_fen(Variant::Golem, fen).unwrap().to_fen(Variant::Golem), fen);
    }
}
