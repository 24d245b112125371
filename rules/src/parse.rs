//! Forgiving move input. [`Position::parse_move`] takes SAN (`Nf3`, `exd8=Q`, `Wxe5-f6`), SAN
//! in lower case where that is unambiguous (`nf3`; `bxc3` is the pawn's), over-specified SAN
//! (`Ng1f3`), coordinates (`e2e4`, `e2-e4`, `d4e5,e5f6`), `O-O`/`0-0`, `:` for `x`, and
//! ignores check marks and annotations (`+`, `++`, `#`, `!`, `?`). A Grolman lead move alone
//! selects its turn when it starts only one. A rejected text gets a [`MoveError`] that says
//! what is wrong and lists the legal moves near what was asked, in SAN, for a chat to offer.

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind, Step};
use crate::position::Position;
use crate::reading::{CastlingSide, Reading, Request, Shape};
use crate::role::{Color, Piece, Role};
use crate::square::Square;

/// A move text that is not a legal move here.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}`: {problem}{}", nearby_note(.problem, .nearby))]
pub struct MoveError {
    /// The text as given, trimmed.
    pub text: String,
    pub problem: Problem,
    /// Legal moves near what was asked (by the same piece, or to the same square), in SAN.
    pub nearby: Vec<String>,
}

/// What exactly is wrong with a move text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    #[error("not a move: {0}")]
    Syntax(String),
    #[error("there are no legal moves: the game is over")]
    NoMoves,
    #[error("{color} has no {what}")]
    NoPiece { color: Color, what: String },
    #[error("{}", cannot_reach(*.color, *.role, *.from, *.over, *.to))]
    CannotReach { color: Color, role: Role, from: Option<Square>, over: Option<Square>, to: Square },
    #[error("no legal move to {to} leaves a {role} there")]
    WrongResult { to: Square, role: Role },
    #[error("it is ambiguous: it could be {}", .0.join(", "))]
    Ambiguous(Vec<String>),
    #[error("no turn starting {lead} has that chain")]
    NoSuchChain { lead: String },
    #[error("it would leave {0}'s king in check")]
    KingInCheck(Color),
    #[error("{0} is in check, and this does not get the king out of it")]
    StillInCheck(Color),
    #[error("the rules of {0} do not allow it here")]
    Forbidden(&'static str),
    #[error("there is no castling in {0}")]
    NoCastling(&'static str),
    #[error("{color} can no longer castle {side}")]
    CastlingRightLost { color: Color, side: CastlingSide },
    #[error("{color} cannot castle {side} while pieces stand between the king and the rook")]
    CastlingBlocked { color: Color, side: CastlingSide },
    #[error("{0} cannot castle out of, through or into check")]
    CastlingThroughCheck(Color),
}

fn cannot_reach(color: Color, role: Role, from: Option<Square>, over: Option<Square>, to: Square) -> String {
    let how = match over {
        Some(over) => format!("jump over {over} to {to}"),
        None => format!("move to {to}"),
    };
    match from {
        Some(from) => format!("the {role} on {from} cannot {how}"),
        None => format!("{color} has no {role} that can {how}"),
    }
}

fn nearby_note(problem: &Problem, nearby: &[String]) -> String {
    match problem {
        Problem::Ambiguous(_) => String::new(),
        Problem::NoSuchChain { .. } => format!("; its turns are {}", nearby.join(", ")),
        _ if nearby.is_empty() => String::new(),
        _ => format!("; legal nearby: {}", nearby.join(", ")),
    }
}

/// A problem, and the legal moves to offer instead.
type Rejection = (Problem, Vec<String>);

impl Position {
    /// Reads a move in any common notation and finds it among the legal moves.
    ///
    /// ```
    /// use rules::{Position, Problem, Variant};
    ///
    /// let pos = Position::start(Variant::Chess);
    /// for text in ["Nf3", "nf3", "Ng1f3", "g1f3", "g1-f3", "N:f3!?"] {
    ///     assert_eq!(pos.san(&pos.parse_move(text)?), "Nf3");
    /// }
    ///
    /// // A refusal says why, and what is legal nearby.
    /// let err = pos.parse_move("Nd4").unwrap_err();
    /// assert!(matches!(err.problem, Problem::CannotReach { .. }));
    /// assert_eq!(err.to_string(), "`Nd4`: White has no knight that can move to d4; legal nearby: Na3, Nc3, Nf3, Nh3, d4");
    ///
    /// // In Grolman Chess a lead move that starts several turns needs its chain.
    /// let pos = Position::from_fen(Variant::Grolman, "4k3/8/8/8/8/8/8/RNR1K3 w - - 0 1")?;
    /// let err = pos.parse_move("Nc3").unwrap_err();
    /// assert_eq!(err.problem, Problem::Ambiguous(vec!["Nc3 (Rab1)".into(), "Nc3 (Rcb1)".into()]));
    /// let turn = pos.parse_move("Nc3 (Rcb1)")?;
    /// assert_eq!(pos.coord(&turn), "b1c3 (c1b1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        if let Some(chained) = crate::coord::token_to_chain(text) {
            return self.parse_move(&chained).map_err(|e| MoveError { text: text.trim().to_string(), ..e });
        }
        let error = |(problem, nearby): Rejection| MoveError { text: text.trim().to_string(), problem, nearby };
        let request = Request::read(self.variant, text).map_err(|why| error((Problem::Syntax(why), Vec::new())))?;
        let legal = self.legal_moves();
        for reading in &request.readings {
            let leads: Vec<Move> = legal.iter().filter(|m| self.fits(reading, m)).copied().collect();
            if !leads.is_empty() {
                return self.choose(&request, &leads).map_err(error);
            }
        }
        // Coordinates say most precisely what was meant, when the text can be read so.
        let meant = request.readings.iter().find(|r| matches!(r, Reading::Coord(_)));
        Err(error(self.diagnose(meant.unwrap_or(&request.readings[0]), &legal)))
    }

    fn fits(&self, reading: &Reading, m: &Move) -> bool {
        match (reading, m.kind) {
            (Reading::Castle(side), MoveKind::Castle { rook }) => self.castling_side(rook) == *side,
            (Reading::Castle(_), _) | (Reading::San(_), MoveKind::Castle { .. }) => false,
            // Castling in coordinates: the king's move, or (the only form in Ghost King Chess,
            // where the king's move is a teleport) the king onto its rook.
            (Reading::Coord(s), MoveKind::Castle { rook }) => {
                s.from() == Some(m.from)
                    && s.result.is_none()
                    && (s.to == rook || (s.to == m.to && self.variant.castling_as_king_move()))
            }
            (Reading::San(s) | Reading::Coord(s), _) => {
                s.role.is_none_or(|r| r == m.role)
                    && s.fits_from(m.from)
                    // A pawn leaving its file without taking is read only with that file
                    // named (`ed2`): `d2` is a step along the d-file.
                    && (s.file.is_some() || m.role != Role::Pawn || m.is_capture() || m.from.file() == m.to.file())
                    && s.over == m.hop_over()
                    && s.to == m.to
                    && s.result.is_none_or(|r| self.after(m).board.role_at(m.to) == Some(r))
            }
        }
    }

    /// Picks the one turn among the legal moves that fit the lead, by the chain if one is given.
    fn choose(&self, request: &Request, leads: &[Move]) -> Result<Move, Rejection> {
        let turns: Vec<Move> = match &request.chain {
            Some(chain) => leads.iter().filter(|m| chain_fits(chain, m)).copied().collect(),
            None => leads.to_vec(),
        };
        match turns[..] {
            [m] => Ok(m),
            [] => Err((Problem::NoSuchChain { lead: self.lead_san(&leads[0]) }, self.sans(leads))),
            _ => {
                let sans = self.sans(&turns);
                Err((Problem::Ambiguous(sans.clone()), sans))
            }
        }
    }

    /// Why no legal move fits `reading`, the preferred reading of the text.
    fn diagnose(&self, reading: &Reading, legal: &[Move]) -> Rejection {
        if legal.is_empty() {
            return (Problem::NoMoves, Vec::new());
        }
        match reading {
            Reading::Castle(side) => {
                let royal = self.variant.royal();
                (self.castling_problem(*side), self.sans(legal.iter().filter(|m| m.role == royal)))
            }
            Reading::San(s) | Reading::Coord(s) => self.shape_problem(reading, s, legal),
        }
    }

    fn shape_problem(&self, reading: &Reading, s: &Shape, legal: &[Move]) -> Rejection {
        let us = self.turn;
        let movers = self.movers(s);
        let nearby = self.sans(legal.iter().filter(|m| movers.contains(m.from) || m.to == s.to));
        let Some(first) = movers.first() else {
            return (self.no_piece(s), nearby);
        };
        let loose = match reading {
            Reading::Coord(_) => Reading::Coord(Shape { result: None, ..*s }),
            _ => Reading::San(Shape { result: None, ..*s }),
        };
        if let Some(role) = s.result.filter(|_| legal.iter().any(|m| self.fits(&loose, m))) {
            return (Problem::WrongResult { to: s.to, role }, nearby);
        }
        // Golem restriction 1 lifted, so a capture it forbids is reported as forbidden.
        let pseudo = self.pseudo_moves(false, true);
        if let Some(m) = pseudo.iter().find(|m| self.fits(reading, m)) {
            let problem = if !self.after(m).royal_attacked(us) {
                Problem::Forbidden(self.variant.name())
            } else if self.is_check() {
                Problem::StillInCheck(us)
            } else {
                Problem::KingInCheck(us)
            };
            return (problem, nearby);
        }
        let role = s.role.or(self.board.role_at(first)).expect("a mover stands on its square");
        let from = (!movers.more_than_one()).then_some(first);
        (Problem::CannotReach { color: us, role, from, over: s.over, to: s.to }, nearby)
    }

    /// The pieces of the side to move that the shape may speak of.
    fn movers(&self, s: &Shape) -> Bitboard {
        let ours = match s.role {
            Some(role) => self.board.by_piece(Piece::new(self.turn, role)),
            None => self.board.by_color(self.turn),
        };
        ours.filter_squares(|sq| s.fits_from(sq))
    }

    fn no_piece(&self, s: &Shape) -> Problem {
        let name = s.role.map_or("piece", Role::name);
        let what = match (s.file, s.rank) {
            (Some(_), Some(_)) => format!("{name} on {}", s.from().expect("file and rank")),
            (Some(f), None) => format!("{name} on the {}-file", (b'a' + f) as char),
            (None, Some(r)) => format!("{name} on rank {}", r + 1),
            (None, None) => name.to_string(),
        };
        Problem::NoPiece { color: self.turn, what }
    }

    fn castling_problem(&self, side: CastlingSide) -> Problem {
        let color = self.turn;
        let Some(files) = self.variant.castling_files() else {
            return Problem::NoCastling(self.variant.name());
        };
        let rook = Square::new(files.rook[side.index()], self.geo.back_rank(color)).expect("inside the frame");
        if !self.castling.contains(rook) {
            return Problem::CastlingRightLost { color, side };
        }
        let pseudo = self.pseudo_moves(true, false);
        // The squares between are empty, so what forbids it is an attack.
        if pseudo.iter().any(|m| m.kind == MoveKind::Castle { rook }) {
            Problem::CastlingThroughCheck(color)
        } else {
            Problem::CastlingBlocked { color, side }
        }
    }

    /// SAN of each move, without repeats, in order.
    fn sans<'a>(&self, moves: impl IntoIterator<Item = &'a Move>) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for m in moves {
            let san = self.san(m);
            if !out.contains(&san) {
                out.push(san);
            }
        }
        out
    }
}

fn chain_fits(chain: &[Vec<Shape>], m: &Move) -> bool {
    chain.len() == m.chain.len() && chain.iter().zip(m.chain.steps()).all(|(shapes, step)| step_fits(shapes, step))
}

fn step_fits(shapes: &[Shape], step: &Step) -> bool {
    shapes.iter().any(|s| {
        s.role.is_none_or(|r| r == step.role)
            && s.fits_from(step.from)
            && s.over.is_none()
            && s.to == step.to
            && s.result.is_none_or(|r| step.promotion.unwrap_or(step.role) == r)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Variant;

    fn pos(variant: Variant, fen: &str) -> Position {
        Position::from_fen(variant, fen).unwrap()
    }

    /// Parses `text` and gives the move back in SAN.
    fn read(p: &Position, text: &str) -> String {
        p.san(&p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}")))
    }

    fn problem(p: &Position, text: &str) -> Problem {
        p.parse_move(text).unwrap_err().problem
    }

    #[test]
    fn forgiving_spellings() {
        let p = Position::start(Variant::Chess);
        for text in ["e4", "e2e4", "e2-e4", "E2E4", "e4!", "Pe4", "e2-e4?!"] {
            assert_eq!(read(&p, text), "e4", "{text}");
        }
        for text in ["Nf3", "nf3", "Ng1f3", "Ng1-f3", "g1f3", "N1f3", "Ngf3", "NF3", "Nf3+"] {
            assert_eq!(read(&p, text), "Nf3", "{text}");
        }
    }

    #[test]
    fn lower_case_b_is_the_pawn_when_both_fit() {
        let p = pos(Variant::Chess, "4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1");
        assert_eq!(read(&p, "bxc3"), "bxc3");
        assert_eq!(read(&p, "Bxc3"), "Bxc3");
        assert_eq!(read(&p, "bc3"), "bxc3");
        assert_eq!(read(&p, "d2c3"), "Bxc3");
        let p = pos(Variant::Chess, "4k3/8/8/8/8/2n5/3B4/4K3 w - - 0 1");
        assert_eq!(read(&p, "bxc3"), "Bxc3");
    }

    #[test]
    fn castling_spellings() {
        let p = pos(Variant::Chess, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for (text, san) in [("O-O", "O-O"), ("0-0", "O-O"), ("o-o", "O-O"), ("e1g1", "O-O"), ("e1h1", "O-O")] {
            assert_eq!(read(&p, text), san, "{text}");
        }
        for text in ["O-O-O", "0-0-0", "e1c1", "e1a1"] {
            assert_eq!(read(&p, text), "O-O-O", "{text}");
        }
        let p = pos(Variant::GhostKing, "4k2r/8/8/8/8/8/8/4K2R w K - 0 1");
        assert_eq!(read(&p, "O-O"), "O-O");
        assert_eq!(read(&p, "e1h1"), "O-O");
        assert_eq!(read(&p, "e1g1"), "Kg1");
        assert_eq!(read(&p, "Kg1"), "Kg1");
        let p = pos(Variant::UnicornGreat, Variant::UnicornGreat.start_fen());
        assert_eq!(problem(&p, "O-O"), Problem::CastlingBlocked { color: Color::White, side: CastlingSide::KingSide });
    }

    #[test]
    fn promotions_and_changes() {
        let p = pos(Variant::Chess, "8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
        for text in ["e8Q", "e8=Q", "e8q", "e7e8q", "e8=Q+"] {
            assert_eq!(read(&p, text), "e8=Q", "{text}");
        }
        assert_eq!(read(&p, "e8n"), "e8=N");
        assert_eq!(read(&p, "e8b"), "e8=B");
        assert_eq!(
            problem(&p, "e8"),
            Problem::Ambiguous(vec!["e8=Q".into(), "e8=R".into(), "e8=B".into(), "e8=N".into()])
        );
        assert_eq!(problem(&p, "e8=K"), Problem::WrongResult { to: "e8".parse().unwrap(), role: Role::King });
        let p = pos(Variant::Golem, "4k3/8/8/8/5g2/8/4N3/4K3 w - - 0 1");
        for text in ["Nxf4=H", "N:f4=H", "Nxf4", "nf4", "e2f4"] {
            assert_eq!(read(&p, text), "Nxf4=H", "{text}");
        }
        let p = pos(Variant::Golem, "4k3/8/8/6g1/6G1/8/8/4K3 w - - 0 1");
        assert_eq!(read(&p, "G:g5"), "Gxg5=H");
        let p = pos(Variant::Werewolf, "3w3k/4P3/8/8/8/8/8/4K3 w - - 0 1");
        for text in ["exd8=W", "e:d8", "exd8", "e7d8", "ed8"] {
            assert_eq!(read(&p, text), "exd8=W", "{text}");
        }
    }

    #[test]
    fn werewolf_hops() {
        let p = pos(Variant::Werewolf, "4k3/8/1n6/2p1p3/3W4/8/8/4K3 w - - 0 1");
        for (text, san) in [
            ("Wxe5-f6", "Wxe5-f6"),
            ("W:e5-f6", "Wxe5-f6"),
            ("d4e5,e5f6", "Wxe5-f6"),
            ("Wf6", "Wf6"),
            ("d4f6", "Wf6"),
            ("Wxc5xb6", "Wxc5xb6"),
            ("Wd4xc5xb6", "Wxc5xb6"),
            ("Wxb6", "Wxb6"),
            ("Wxc5", "Wxc5"),
        ] {
            assert_eq!(read(&p, text), san, "{text}");
        }
    }

    #[test]
    fn rank_ten() {
        let p = pos(Variant::UnicornGreat, "r4k4/10/10/r9/10/10/10/10/10/R4K4 b - - 0 1");
        assert_eq!(read(&p, "a10a9"), "R10a9");
        assert_eq!(read(&p, "R10a9"), "R10a9");
        assert_eq!(read(&p, "Ra10a9"), "R10a9");
        assert_eq!(read(&p, "a7a9"), "R7a9");
        assert_eq!(problem(&p, "Ra9"), Problem::Ambiguous(vec!["R7a9".into(), "R10a9".into()]));
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let p = Position::start(Variant::Chess);
        let e = p.parse_move("Qh5").unwrap_err();
        assert_eq!(e.to_string(), "`Qh5`: the queen on d1 cannot move to h5");
        let e = p.parse_move("Nf5").unwrap_err();
        assert_eq!(e.to_string(), "`Nf5`: White has no knight that can move to f5; legal nearby: Na3, Nc3, Nf3, Nh3");
        assert_eq!(
            problem(&p, "Bc4"),
            Problem::CannotReach {
                color: Color::White,
                role: Role::Bishop,
                from: None,
                over: None,
                to: "c4".parse().unwrap(),
            }
        );
        assert_eq!(problem(&p, "e3e4"), Problem::NoPiece { color: Color::White, what: "piece on e3".into() });
        assert_eq!(problem(&p, "Ncd2"), Problem::NoPiece { color: Color::White, what: "knight on the c-file".into() });
        assert_eq!(problem(&p, "O-O"), Problem::CastlingBlocked { color: Color::White, side: CastlingSide::KingSide });
        assert_eq!(problem(&p, "Zf3"), Problem::Syntax("`Z` is not a piece letter of Chess".into()));
        assert_eq!(problem(&p, "hello"), Problem::Syntax("`hello` does not end in a destination square".into()));

        let p = pos(Variant::Chess, "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
        let e = p.parse_move("Nd2").unwrap_err();
        assert_eq!(e.to_string(), "`Nd2`: it is ambiguous: it could be Nbd2, Nfd2");
        assert_eq!(e.nearby, ["Nbd2", "Nfd2"]);

        let pinned = pos(Variant::Chess, "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1");
        assert_eq!(problem(&pinned, "Bd3"), Problem::KingInCheck(Color::White));
        let checked = pos(Variant::Chess, "4k3/8/8/8/8/8/3P4/r3K3 w - - 0 1");
        assert_eq!(problem(&checked, "d3"), Problem::StillInCheck(Color::White));
        let no_rights = pos(Variant::Chess, "4k3/8/8/8/8/8/8/R3K2R w Q - 0 1");
        assert_eq!(
            problem(&no_rights, "O-O"),
            Problem::CastlingRightLost { color: Color::White, side: CastlingSide::KingSide }
        );
        let attacked = pos(Variant::Chess, "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1");
        assert_eq!(problem(&attacked, "0-0"), Problem::CastlingThroughCheck(Color::White));
        let mated = pos(Variant::Chess, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
        assert_eq!(problem(&mated, "Kh8"), Problem::NoMoves);
        let grolman = pos(Variant::Grolman, "4k3/8/8/8/8/8/8/4K2R w - - 0 1");
        assert_eq!(problem(&grolman, "O-O"), Problem::NoCastling("Grolman Chess"));
    }

    /// The two turns that Nc3 starts: either rook may fill b1.
    fn forked_turns(p: &Position) -> Vec<Move> {
        let turns: Vec<Move> =
            p.legal_moves().into_iter().filter(|m| m.from.to_string() == "b1" && m.to.to_string() == "c3").collect();
        assert_eq!(turns.len(), 2);
        turns
    }

    #[test]
    fn grolman_lead_alone_or_with_its_chain() {
        let p = pos(Variant::Grolman, "4k3/8/8/8/8/8/8/RNR1K3 w - - 0 1");
        let turns = forked_turns(&p);
        let request = |text| Request::read(Variant::Grolman, text).unwrap();
        let (problem, nearby) = p.choose(&request("Nc3"), &turns).unwrap_err();
        assert_eq!(problem, Problem::Ambiguous(vec!["Nc3 (Rab1)".into(), "Nc3 (Rcb1)".into()]));
        assert_eq!(nearby, ["Nc3 (Rab1)", "Nc3 (Rcb1)"]);
        assert_eq!(p.choose(&request("Nc3 (Rcb1)"), &turns), Ok(turns[1]));
        assert_eq!(p.choose(&request("Nc3 (Rc1b1)"), &turns), Ok(turns[1]));
        assert_eq!(p.choose(&request("b1c3 (a1b1)"), &turns), Ok(turns[0]));
        assert_eq!(p.choose(&request("Nc3"), &turns[..1]), Ok(turns[0]));
        let (problem, _) = p.choose(&request("Nc3 (Rb1, Ra1)"), &turns).unwrap_err();
        assert_eq!(problem, Problem::NoSuchChain { lead: "Nc3".into() });
    }
}
