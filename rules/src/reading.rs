//! The syntax half of move input: what a piece of move text asks for, before any position is
//! consulted. One text may be read several ways (`bxc3`: a pawn capture, or a bishop typed in
//! lower case); [`Request::read`] returns every reading in order of preference, and
//! `Position::parse_move` takes the first that some legal move fits.

use crate::role::Role;
use crate::square::{split_square, Square};
use crate::variants::Variant;

/// Castling towards the king-side rook or the queen-side rook.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CastlingSide {
    KingSide,
    QueenSide,
}

impl CastlingSide {
    /// The index of this side in [`crate::variant::CastlingFiles`]'s pairs.
    pub const fn index(self) -> usize {
        match self {
            CastlingSide::KingSide => 0,
            CastlingSide::QueenSide => 1,
        }
    }
}

impl std::fmt::Display for CastlingSide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CastlingSide::KingSide => "king side",
            CastlingSide::QueenSide => "queen side",
        })
    }
}

/// The squares and roles a move text names; `None` leaves a part open.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Shape {
    /// `None` in coordinates, which name the square and not the piece.
    pub role: Option<Role>,
    pub file: Option<u8>,
    pub rank: Option<u8>,
    /// The square jumped over by a Werewolf hop that takes its piece.
    pub over: Option<Square>,
    pub to: Square,
    /// What stands on `to` afterwards: a promotion, or a capture's transformation (`=H`).
    pub result: Option<Role>,
}

impl Shape {
    /// The start square, when both file and rank are given.
    pub fn from(&self) -> Option<Square> {
        Square::new(self.file?, self.rank?)
    }

    pub fn fits_from(&self, from: Square) -> bool {
        self.file.is_none_or(|f| f == from.file()) && self.rank.is_none_or(|r| r == from.rank())
    }
}

/// One way of reading a move text.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Reading {
    Castle(CastlingSide),
    /// SAN, the role always named (pawns by default).
    San(Shape),
    /// Coordinates: castling may be written as the king's move or as the king onto its rook.
    Coord(Shape),
}

impl Reading {
    pub fn shape(&self) -> Option<&Shape> {
        match self {
            Reading::Castle(_) => None,
            Reading::San(s) | Reading::Coord(s) => Some(s),
        }
    }
}

/// Everything a move text asks for: the readings of the move (of the lead move, in Grolman
/// Chess), and the readings of each chain step if the text gives a chain.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Request {
    pub readings: Vec<Reading>,
    pub chain: Option<Vec<Vec<Shape>>>,
}

/// Why a text cannot be a move, as a phrase: "`Z` is not a piece letter of Werewolf Chess".
pub(crate) type Why = String;

impl Request {
    pub fn read(variant: Variant, text: &str) -> Result<Request, Why> {
        let (lead, chain) = split_chain(text)?;
        let readings = readings(variant, lead)?;
        let chain = match chain {
            None => None,
            Some(_) if !variant.has_chains() => {
                return Err("only Grolman Chess turns have a chain in parentheses".to_string())
            }
            Some(steps) => Some(read_steps(variant, steps)?),
        };
        Ok(Request { readings, chain })
    }
}

/// Splits `Rf3 (Kf4, e5)#` into `Rf3` and `Kf4, e5`.
pub(crate) fn split_chain(text: &str) -> Result<(&str, Option<&str>), Why> {
    let Some(open) = text.find('(') else {
        if text.contains(')') {
            return Err("a `)` closes no `(`".to_string());
        }
        return Ok((text, None));
    };
    let rest = &text[open + 1..];
    let close = rest.find(')').ok_or("the chain's `(` is never closed")?;
    let (steps, tail) = (&rest[..close], &rest[close + 1..]);
    if steps.contains('(') {
        return Err("a chain holds no parentheses".to_string());
    }
    if !strip_annotations(tail).is_empty() {
        return Err("only `+`, `#`, `!` or `?` may follow a chain's `)`".to_string());
    }
    Ok((&text[..open], Some(steps)))
}

fn read_steps(variant: Variant, text: &str) -> Result<Vec<Vec<Shape>>, Why> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|token| {
            let shapes: Vec<Shape> = readings(variant, token)?.iter().filter_map(|r| r.shape().copied()).collect();
            if shapes.is_empty() {
                return Err(format!("`{token}` cannot be a chain step (no castling in a chain)"));
            }
            Ok(shapes)
        })
        .collect()
}

/// Trailing check marks and annotations, which input ignores: `+`, `++`, `#`, `!`, `?`, `e.p.`.
fn strip_annotations(text: &str) -> &str {
    let mut s = text.trim();
    loop {
        let before = s.len();
        s = s.trim_end_matches(['+', '#', '!', '?']).trim_end();
        let cut = s.len().saturating_sub(4);
        if s.is_char_boundary(cut) && s[cut..].eq_ignore_ascii_case("e.p.") {
            s = s[..cut].trim_end();
        }
        if s.len() == before {
            return s;
        }
    }
}

fn readings(variant: Variant, text: &str) -> Result<Vec<Reading>, Why> {
    let core = strip_annotations(text).replace(':', "x");
    if core.is_empty() {
        return Err("there is no move in it".to_string());
    }
    if let Some(side) = castling(&core) {
        return Ok(vec![Reading::Castle(side)]);
    }
    // Typed in capitals (`E2E4`, `NG1F3`): read again in lower case, but only then, as an
    // upper-case letter otherwise names its piece (`Bxc3` is never the b-pawn's).
    let (out, why) = all_readings(variant, &core);
    if !out.is_empty() {
        return Ok(out);
    }
    let (lower, _) = all_readings(variant, &core.to_lowercase());
    if lower.is_empty() {
        return Err(why.unwrap_or_else(|| format!("`{core}` is not a move")));
    }
    Ok(lower)
}

/// The readings of one spelling, and why the first rejected one was rejected.
fn all_readings(variant: Variant, s: &str) -> (Vec<Reading>, Option<Why>) {
    let mut out: Vec<Reading> = Vec::new();
    let mut first_error = None;
    for attempt in attempts(variant, s) {
        match attempt {
            Ok(r) if !out.contains(&r) => out.push(r),
            Ok(_) => {}
            Err(why) => {
                first_error.get_or_insert(why);
            }
        }
    }
    (out, first_error)
}

fn castling(core: &str) -> Option<CastlingSide> {
    let letters: String = core.chars().filter(|&c| c != '-').collect();
    match letters.as_str() {
        "OO" | "oo" | "00" => Some(CastlingSide::KingSide),
        "OOO" | "ooo" | "000" => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// The readings of one spelling, best first: a pawn move and coordinates when it starts with a
/// file, a piece move when it starts with a piece letter (upper case, or lower case as a last
/// resort, so that `bxc3` is the pawn's when both fit).
fn attempts(variant: Variant, s: &str) -> Vec<Result<Reading, Why>> {
    let Some(first) = s.chars().next() else {
        return Vec::new();
    };
    let body = &s[first.len_utf8()..];
    let piece = variant.role_for_char(first);
    let mut out = Vec::new();
    if first.is_ascii_uppercase() {
        out.push(match piece {
            Some(role) => shape(variant, Some(role), body).map(Reading::San),
            None => Err(format!("`{first}` is not a piece letter of {}", variant.name())),
        });
        return out;
    }
    if ('a'..='j').contains(&first) {
        out.push(shape(variant, Some(Role::Pawn), s).map(Reading::San));
        out.push(coordinates(variant, s).map(Reading::Coord));
    }
    if let Some(role) = piece {
        out.push(shape(variant, Some(role), body).map(Reading::San));
    }
    if out.is_empty() {
        out.push(Err(format!("a move starts with a piece letter or a square, not `{first}`")));
    }
    out
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Token {
    Square(Square),
    File(u8),
    Rank(u8),
    Letter(char),
    /// `x`: a capture.
    Takes,
    /// `-` between squares.
    Dash,
    /// `=` before a promotion or transformation letter.
    Equals,
}

fn lex(body: &str) -> Result<Vec<Token>, Why> {
    let mut tokens = Vec::new();
    let mut rest = body;
    while let Some(c) = rest.chars().next() {
        let mut len = c.len_utf8();
        let token = match c {
            'x' => Token::Takes,
            '-' => Token::Dash,
            '=' => {
                // Whatever follows `=` is a piece letter, even `b` or `c`.
                let letter = rest[1..].chars().next().ok_or("`=` must be followed by a piece letter")?;
                len += letter.len_utf8();
                tokens.push(Token::Equals);
                Token::Letter(letter)
            }
            'a'..='j' if rest[1..].starts_with(|d: char| d.is_ascii_digit()) => {
                let (sq, tail) =
                    split_square(rest).ok_or_else(|| format!("`{}` is not a square", square_text(rest)))?;
                len = rest.len() - tail.len();
                Token::Square(sq)
            }
            'a'..='j' => Token::File(c as u8 - b'a'),
            '1'..='9' => {
                len = if rest.starts_with("10") { 2 } else { 1 };
                Token::Rank(rest[..len].parse::<u8>().expect("digits") - 1)
            }
            c if c.is_alphabetic() => Token::Letter(c),
            c => return Err(format!("`{c}` has no place in a move")),
        };
        tokens.push(token);
        rest = &rest[len..];
    }
    Ok(tokens)
}

fn square_text(s: &str) -> &str {
    let end = s.char_indices().skip(1).find(|(_, c)| !c.is_ascii_digit()).map_or(s.len(), |(i, _)| i);
    &s[..end]
}

/// Reads a SAN body (what follows the piece letter, or the whole text for a pawn):
/// `[from file][from rank][x]to[=X]`, with `x over (x|-)` before `to` for a Werewolf hop.
fn shape(variant: Variant, role: Option<Role>, body: &str) -> Result<Shape, Why> {
    let mut tokens = lex(body)?;
    let result = take_result(variant, &mut tokens)?;
    let Some(Token::Square(to)) = tokens.pop() else {
        return Err(format!("`{body}` does not end in a destination square"));
    };
    on_board(variant, to)?;
    if matches!(tokens.last(), Some(Token::Takes | Token::Dash)) {
        tokens.pop();
    }
    let mut over = None;
    if let [.., Token::Takes, Token::Square(sq)] = tokens[..] {
        on_board(variant, sq)?;
        over = Some(sq);
        tokens.truncate(tokens.len() - 2);
    }
    if matches!(tokens.last(), Some(Token::Takes | Token::Dash)) {
        tokens.pop();
    }
    let (file, rank) = match tokens[..] {
        [] => (None, None),
        [Token::File(f)] => (Some(f), None),
        [Token::Rank(r)] => (None, Some(r)),
        [Token::Square(sq)] => (Some(sq.file()), Some(sq.rank())),
        _ => return Err(format!("cannot read `{body}` as a move")),
    };
    Ok(Shape { role, file, rank, over, to, result })
}

/// Takes a trailing `=X`, or a promotion letter written right after the square (`e8q`).
fn take_result(variant: Variant, tokens: &mut Vec<Token>) -> Result<Option<Role>, Why> {
    let letter = match tokens[..] {
        [.., Token::Equals, Token::Letter(c)] => {
            tokens.truncate(tokens.len() - 2);
            c
        }
        [.., Token::Square(_), Token::Letter(c)] => {
            tokens.pop();
            c
        }
        [.., Token::Square(_), Token::File(f)] => {
            tokens.pop();
            (b'a' + f) as char
        }
        _ => return Ok(None),
    };
    variant
        .role_for_char(letter)
        .map(Some)
        .ok_or_else(|| format!("`{letter}` is not a piece letter of {}", variant.name()))
}

fn on_board(variant: Variant, sq: Square) -> Result<(), Why> {
    let g = variant.geometry();
    if !g.contains(sq) {
        return Err(format!("{sq} is off the {}x{} board", g.width, g.height));
    }
    Ok(())
}

/// Reads coordinates: `e2e4`, `e2-e4`, `e7e8q`, a hop's two legs `d4e5,e5f6`.
fn coordinates(variant: Variant, s: &str) -> Result<Shape, Why> {
    let norm: String = s.chars().filter(|c| !matches!(c, '-' | 'x' | '=' | ' ')).collect();
    let not_coord = || format!("`{s}` is not a coordinate move (like e2e4, e7e8q or d4e5,e5f6)");
    let legs: Vec<&str> = norm.split(',').collect();
    let mut squares = Vec::new();
    let mut result = None;
    for (i, leg) in legs.iter().enumerate() {
        let (a, rest) = split_square(leg).ok_or_else(not_coord)?;
        let (b, rest) = split_square(rest).ok_or_else(not_coord)?;
        let mut letters = rest.chars();
        match (letters.next(), letters.next()) {
            (None, _) => {}
            (Some(c), None) if i + 1 == legs.len() => {
                result = Some(
                    variant
                        .role_for_char(c)
                        .ok_or_else(|| format!("`{c}` is not a piece letter of {}", variant.name()))?,
                );
            }
            _ => return Err(not_coord()),
        }
        on_board(variant, a)?;
        on_board(variant, b)?;
        squares.push((a, b));
    }
    let (from, over, to) = match squares[..] {
        [(from, to)] => (from, None, to),
        [(from, over), (over2, to)] if over == over2 => (from, Some(over), to),
        _ => return Err(not_coord()),
    };
    Ok(Shape { role: None, file: Some(from.file()), rank: Some(from.rank()), over, to, result })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn first(variant: Variant, text: &str) -> Reading {
        Request::read(variant, text).unwrap().readings[0]
    }

    fn san(role: Role, file: Option<u8>, rank: Option<u8>, to: &str) -> Reading {
        Reading::San(Shape { role: Some(role), file, rank, over: None, to: sq(to), result: None })
    }

    #[test]
    fn san_forms() {
        let v = Variant::Chess;
        assert_eq!(first(v, "Nf3"), san(Role::Knight, None, None, "f3"));
        assert_eq!(first(v, "Ng1xf3+"), san(Role::Knight, Some(6), Some(0), "f3"));
        assert_eq!(first(v, "R1a3!?"), san(Role::Rook, None, Some(0), "a3"));
        assert_eq!(first(v, "d:e5"), san(Role::Pawn, Some(3), None, "e5"));
        assert_eq!(first(v, "0-0-0"), Reading::Castle(CastlingSide::QueenSide));
        assert_eq!(first(v, "O-O#"), Reading::Castle(CastlingSide::KingSide));
        for text in ["e8Q", "e8=Q", "e8q", "e8=q"] {
            let Reading::San(s) = first(v, text) else { panic!("{text}") };
            assert_eq!(s.result, Some(Role::Queen), "{text}");
        }
        let Reading::San(s) = first(v, "e8b") else { panic!() };
        assert_eq!(s.result, Some(Role::Bishop));
    }

    #[test]
    fn lower_case_prefers_the_pawn() {
        let r = Request::read(Variant::Chess, "bxc3").unwrap().readings;
        assert_eq!(r[0], san(Role::Pawn, Some(1), None, "c3"));
        assert_eq!(r.last(), Some(&san(Role::Bishop, None, None, "c3")));
        assert_eq!(first(Variant::Chess, "nf3"), san(Role::Knight, None, None, "f3"));
    }

    #[test]
    fn hops_and_rank_ten() {
        let Reading::San(s) = first(Variant::Werewolf, "Wxe5-f6") else { panic!() };
        assert_eq!((s.over, s.to, s.file), (Some(sq("e5")), sq("f6"), None));
        let Reading::San(s) = first(Variant::Werewolf, "Wd4xe5xf6") else { panic!() };
        assert_eq!((s.from(), s.over), (Some(sq("d4")), Some(sq("e5"))));
        let Reading::Coord(s) = first(Variant::Werewolf, "d4e5,e5f6") else { panic!() };
        assert_eq!((s.from(), s.over, s.to), (Some(sq("d4")), Some(sq("e5")), sq("f6")));
        let Reading::Coord(s) = Request::read(Variant::UnicornGreat, "a10a9").unwrap().readings[1] else { panic!() };
        assert_eq!((s.from(), s.to), (Some(sq("a10")), sq("a9")));
        assert_eq!(first(Variant::UnicornGreat, "R10a5"), san(Role::Rook, None, Some(9), "a5"));
    }

    #[test]
    fn chains_split_off() {
        let r = Request::read(Variant::Grolman, "Rf3 (Kf4, e5, Nce4, c3+, Bc2)#").unwrap();
        let chain = r.chain.unwrap();
        assert_eq!(chain.len(), 5);
        assert_eq!(
            chain[2][0],
            Shape { role: Some(Role::Knight), file: Some(2), rank: None, over: None, to: sq("e4"), result: None }
        );
        let r = Request::read(Variant::Grolman, "f1f3 (g3f4 e7e8q)").unwrap();
        assert_eq!(r.chain.unwrap()[1].iter().find(|s| s.role.is_none()).unwrap().result, Some(Role::Queen));
        assert!(Request::read(Variant::Chess, "Rf3 (Kf4)").is_err());
        assert!(Request::read(Variant::Grolman, "Rf3 (Kf4").is_err());
        assert!(Request::read(Variant::Grolman, "Rf3 (Kf4) e4").is_err());
    }

    #[test]
    fn syntax_errors_say_why() {
        let why = |t| Request::read(Variant::Werewolf, t).unwrap_err();
        assert_eq!(why("Qd4"), "`Q` is not a piece letter of Werewolf Chess");
        assert_eq!(why(""), "there is no move in it");
        assert_eq!(why("Ni5"), "i5 is off the 8x8 board");
        assert_eq!(why("e8=Z"), "`Z` is not a piece letter of Werewolf Chess");
        assert_eq!(why("Nf"), "`f` does not end in a destination square");
    }
}
