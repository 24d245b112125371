//! Squares, files and ranks of boards up to 10x10.
//!
//! Every board uses the same numbering, `rank * 10 + file`, so a square means the same thing on
//! every variant's board; an 8x8 board simply uses the lower-left part of the 10x10 frame.

use std::fmt;
use std::str::FromStr;

/// Number of squares in the frame that every board lives in.
pub const FRAME: usize = 100;
/// Width of the frame: the index distance between two ranks.
pub const STRIDE: i8 = 10;

/// A square of the frame, `a1` = 0, `j10` = 99.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0 = a) and `rank` (0 = rank 1), if both are inside the frame.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 10 && rank < 10 {
            Some(Square(rank * 10 + file))
        } else {
            None
        }
    }

    /// The square with this frame index.
    ///
    /// # Panics
    /// When `index >= 100`.
    pub const fn from_index(index: u8) -> Square {
        assert!(index < 100, "square index out of the frame");
        Square(index)
    }

    /// A square from an index known to be in the frame (a bit of a frame-masked bitboard).
    #[inline]
    pub(crate) const fn from_frame_bit(index: u32) -> Square {
        debug_assert!(index < 100);
        Square(index as u8)
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 for the a-file.
    pub const fn file(self) -> u8 {
        self.0 % 10
    }

    /// 0 for rank 1.
    pub const fn rank(self) -> u8 {
        self.0 / 10
    }

    /// The square `df` files and `dr` ranks away, if it is inside the frame.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f >= 0 && r >= 0 && f < 10 && r < 10 {
            Some(Square((r * 10 + f) as u8))
        } else {
            None
        }
    }

    pub fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }

    /// Every square of the frame, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..FRAME as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A text that is not a square name (`e4`, `j10`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a square (squares are a file a-j and a rank 1-10, like e4)")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let err = || ParseSquareError(s.to_string());
        let mut chars = s.chars();
        let file = chars.next().ok_or_else(err)?;
        if !('a'..='j').contains(&file) {
            return Err(err());
        }
        let rank_text = chars.as_str();
        if rank_text.is_empty() || rank_text.len() > 2 || rank_text.starts_with('0') {
            return Err(err());
        }
        let rank: u8 = rank_text.parse().map_err(|_| err())?;
        if !(1..=10).contains(&rank) {
            return Err(err());
        }
        Ok(Square((rank - 1) * 10 + (file as u8 - b'a')))
    }
}

/// Reads a square name at the start of `s`, returning it and the rest: `e10e9` gives `e10`
/// then `e9`. A second digit is taken only when it makes rank 10.
pub(crate) fn split_square(s: &str) -> Option<(Square, &str)> {
    let bytes = s.as_bytes();
    if bytes.len() < 2 || !(b'a'..=b'j').contains(&bytes[0]) || !bytes[1].is_ascii_digit() {
        return None;
    }
    let len = if bytes[1] == b'1' && bytes.get(2) == Some(&b'0') { 3 } else { 2 };
    let sq = s[..len].parse().ok()?;
    Some((sq, &s[len..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!("j10".parse::<Square>().unwrap().index(), 99);
        assert!("k1".parse::<Square>().is_err());
        assert!("a0".parse::<Square>().is_err());
        assert!("a11".parse::<Square>().is_err());
        assert!("a01".parse::<Square>().is_err());
    }

    #[test]
    fn split_reads_rank_ten() {
        let (a, rest) = split_square("a10a9").unwrap();
        assert_eq!((a.to_string().as_str(), rest), ("a10", "a9"));
        let (b, rest) = split_square("a1a2").unwrap();
        assert_eq!((b.to_string().as_str(), rest), ("a1", "a2"));
    }
}
