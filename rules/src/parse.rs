//! Forgiving move input. [`Position::parse_move`] takes SAN (`Nf3`, `exd8=Q`, `Wxe5-f6`), SAN
//! in lower case where that is unambiguous (`nf3`; `bxc3` is the pawn's), over-specified SAN
//! (`Ng1f3`), coordinates (`e2e4`, `e2-e4`, `d4e5,e5f6`), `O-O`/`0-0`, `:` for `x`, and
//! ignores check marks and annotations (`+`, `++`, `#`, `!`, `?`). A Grolman lead move alone
//! selects its turn when it starts only one. A rejected text gets a [`MoveError`] that says
//! what is wrong and lists the legal moves near what was asked, in SAN, for a chat to offer.

use crate::bitboard::Bitboard;
use crate::movegen::Collect;
use crate::moves::{Move, MoveKind, Step};
use crate::position::Position;
use crate::reading::{CastlingSide, Reading, Request, Shape};
use crate::role::{Color, Piece, Role};
use crate::square::Square;
use crate::variant::Variant;

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
    CannotReach {
        color: Color,
        role: Role,
        from: Option<Square>,
        over: Option<Square>,
        to: Square,
    },
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

fn cannot_reach(
    color: Color,
    role: Role,
    from: Option<Square>,
    over: Option<Square>,
    to: Square,
) -> String {
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
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let error = |(problem, nearby): Rejection| MoveError {
            text: text.trim().to_string(),
            problem,
            nearby,
        };
        let request = Request::read(self.variant, text)
            .map_err(|why| error((Problem::Syntax(why), Vec::new())))?;
        let legal = self.legal_moves();
        for reading in &request.readings {
            let leads: Vec<Move> = legal
                .iter()
                .filter(|m| self.fits(reading, m))
                .copied()
                .collect();
            if !leads.is_empty() {
                return self.choose(&request, &leads).map_err(error);
            }
        }
        Err(error(self.diagnose(&request.readings[0], &legal)))
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
                    && (s.to == rook || (s.to == m.to && self.variant != Variant::GhostKing))
            }
            (Reading::San(s) | Reading::Coord(s), _) => {
                s.role.is_none_or(|r| r == m.role)
                    && s.fits_from(m.from)
                    && s.over == m.hop_over()
                    && s.to == m.to
                    && s.result
                        .is_none_or(|r| self.after(m).board.role_at(m.to) == Some(r))
            }
        }
    }

    /// Picks the one turn among the legal moves that fit the lead, by the chain if one is given.
    fn choose(&self, request: &Request, leads: &[Move]) -> Result<Move, Rejection> {
        let turns: Vec<Move> = match &request.chain {
            Some(chain) => leads
                .iter()
                .filter(|m| chain_fits(chain, m))
                .copied()
                .collect(),
            None => leads.to_vec(),
        };
        match turns[..] {
            [m] => Ok(m),
            [] => Err((
                Problem::NoSuchChain {
                    lead: self.lead_san(&leads[0]),
                },
                self.sans(leads),
            )),
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
                (
                    self.castling_problem(*side),
                    self.sans(legal.iter().filter(|m| m.role == royal)),
                )
            }
            Reading::San(s) | Reading::Coord(s) => self.shape_problem(reading, s, legal),
        }
    }

    fn shape_problem(&self, reading: &Reading, s: &Shape, legal: &[Move]) -> Rejection {
        let us = self.turn;
        let movers = self.movers(s);
        let nearby = self.sans(
            legal
                .iter()
                .filter(|m| movers.contains(m.from) || m.to == s.to),
        );
        let Some(first) = movers.first() else {
            return (self.no_piece(s), nearby);
        };
        let loose = match reading {
            Reading::Coord(_) => Reading::Coord(Shape { result: None, ..*s }),
            _ => Reading::San(Shape { result: None, ..*s }),
        };
        if let Some(role) = s
            .result
            .filter(|_| legal.iter().any(|m| self.fits(&loose, m)))
        {
            return (Problem::WrongResult { to: s.to, role }, nearby);
        }
        let mut pseudo = Vec::new();
        self.generate_pseudo(&mut Collect(&mut pseudo), false);
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
        let role = s
            .role
            .or(self.board.role_at(first))
            .expect("a mover stands on its square");
        let from = (!movers.more_than_one()).then_some(first);
        (
            Problem::CannotReach {
                color: us,
                role,
                from,
                over: s.over,
                to: s.to,
            },
            nearby,
        )
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
        Problem::NoPiece {
            color: self.turn,
            what,
        }
    }

    fn castling_problem(&self, side: CastlingSide) -> Problem {
        let color = self.turn;
        let Some(files) = self.variant.castling_files() else {
            return Problem::NoCastling(self.variant.name());
        };
        let rook = Square::new(files.rook[side.index()], self.geo.back_rank(color))
            .expect("inside the frame");
        if !self.castling.contains(rook) {
            return Problem::CastlingRightLost { color, side };
        }
        let mut pseudo = Vec::new();
        self.generate_pseudo(&mut Collect(&mut pseudo), true);
        match pseudo.iter().any(|m| m.kind == MoveKind::Castle { rook }) {
            true => Problem::CastlingThroughCheck(color),
            false => Problem::CastlingBlocked { color, side },
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
    chain.len() == m.chain.len()
        && chain
            .iter()
            .zip(m.chain.steps())
            .all(|(shapes, step)| step_fits(shapes, step))
}

fn step_fits(shapes: &[Shape], step: &Step) -> bool {
    shapes.iter().any(|s| {
        s.role.is_none_or(|r| r == step.role)
            && s.fits_from(step.from)
            && s.over.is_none()
            && s.to == step.to
            && s.result
                .is_none_or(|r| step.promotion.unwrap_or(step.role) == r)
    })
}
