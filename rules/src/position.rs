//! [`Position`]: a [`Setup`] that the rules accept, and how moves change it.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::geometry::Geometry;
use crate::moves::{Move, MoveKind};
use crate::role::{Color, Piece, Role};
use crate::setup::{FenError, Setup};
use crate::square::Square;
use crate::variants::{Capture, Variant};

/// A legal position of one variant: exactly what a FEN says, checked against the rules.
///
/// ```
/// use rules::{Color, Position, PositionError, Variant};
///
/// let pos = Position::start(Variant::UnicornGreat);
/// assert_eq!(pos.turn(), Color::White);
/// assert_eq!(pos.legal_moves().len(), pos.count_legal() as usize);
///
/// // Ten files, so a rank of ten empty squares is `10`.
/// let pos = Position::from_fen(Variant::UnicornGreat, "5k4/10/10/10/10/10/10/10/10/5K4 w - - 0 1")?;
/// assert_eq!(pos.royal_square(Color::Black), Some("f10".parse()?));
///
/// // A FEN can describe what the rules do not allow.
/// let err = Position::from_fen(Variant::Chess, "4k3/8/8/8/8/8/8/8 w - - 0 1").unwrap_err();
/// assert_eq!(err, PositionError::NoRoyal(Color::White));
/// assert_eq!(err.to_string(), "White has no king");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Position {
    pub(crate) variant: Variant,
    pub(crate) geo: &'static Geometry,
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) castling: Bitboard,
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) golem_captured: bool,
}

/// Why a setup is not a position of its variant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error(transparent)]
    Fen(#[from] FenError),
    #[error("{0} has no king")]
    NoRoyal(Color),
    #[error("{0} has more than one king")]
    ManyRoyals(Color),
    #[error("neither side has a king")]
    NoRoyals,
    #[error("a pawn stands on {0}, a first or last rank")]
    PawnOnBackRank(Square),
    #[error("{0} is in check but it is not {0}'s move")]
    OppositeCheck(Color),
    #[error("castling right for the rook on {0}, but the king or that rook is not on its starting square")]
    BadCastling(Square),
    #[error("en passant square {0} does not follow a pawn's double step")]
    BadEnPassant(Square),
}

impl Position {
    /// The variant's starting position.
    pub fn start(variant: Variant) -> Position {
        Position::from_setup(variant, Setup::start(variant)).expect("start position is legal")
    }

    pub fn from_fen(variant: Variant, fen: &str) -> Result<Position, PositionError> {
        Position::from_setup(variant, Setup::from_fen(variant, fen)?)
    }

    /// Checks a setup against the variant's rules. An en passant square that no pawn can use is
    /// dropped (it changes nothing and would only split repetitions).
    pub fn from_setup(variant: Variant, setup: Setup) -> Result<Position, PositionError> {
        let geo = variant.geometry();
        let pos = Position {
            variant,
            geo,
            board: setup.board,
            turn: setup.turn,
            castling: setup.castling,
            ep_square: None,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
            golem_captured: setup.golem_captured && variant.golem_restrictions(),
        };
        let royal = variant.royal();
        let mut missing = 0;
        for color in Color::ALL {
            match pos.board.by_piece(Piece::new(color, royal)).count() {
                0 if variant.royal_may_be_taken() => missing += 1,
                0 => return Err(PositionError::NoRoyal(color)),
                1 => {}
                _ => return Err(PositionError::ManyRoyals(color)),
            }
        }
        if missing == 2 {
            return Err(PositionError::NoRoyals);
        }
        let back_ranks = geo.ranks[0] | geo.ranks[geo.height as usize - 1];
        if let Some(sq) = (pos.board.by_role(Role::Pawn) & back_ranks).first() {
            return Err(PositionError::PawnOnBackRank(sq));
        }
        if variant.has_check_rule() && pos.royal_attacked(!pos.turn) {
            return Err(PositionError::OppositeCheck(!pos.turn));
        }
        for rook in pos.castling {
            if !pos.castling_right_fits(rook) {
                return Err(PositionError::BadCastling(rook));
            }
        }
        let mut pos = pos;
        if let Some(ep) = setup.ep_square {
            if !pos.ep_fits(ep) {
                return Err(PositionError::BadEnPassant(ep));
            }
            pos.ep_square = pos.ep_usable(ep).then_some(ep);
        }
        Ok(pos)
    }

    /// Writes the position back as a setup.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board.clone(),
            turn: self.turn,
            castling: self.castling,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
            golem_captured: self.golem_captured,
        }
    }

    pub fn fen(&self) -> String {
        self.to_setup().to_fen(self.variant)
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn turn(&self) -> Color {
        self.turn
    }

    pub fn castling_rights(&self) -> Bitboard {
        self.castling
    }

    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Golem Chess: the opponent's previous turn captured a Golem-kind piece of the side to move.
    pub fn golem_captured(&self) -> bool {
        self.golem_captured
    }

    pub fn royal_square(&self, color: Color) -> Option<Square> {
        self.board.by_piece(Piece::new(color, self.variant.royal())).first()
    }

    fn castling_right_fits(&self, rook: Square) -> bool {
        let Some(files) = self.variant.castling_files() else {
            return false;
        };
        let color = if rook.rank() == 0 { Color::White } else { Color::Black };
        if rook.rank() != self.geo.back_rank(color) || !files.rook.contains(&rook.file()) {
            return false;
        }
        let king = Square::new(files.king, rook.rank()).expect("inside the frame");
        self.board.piece_at(rook) == Some(Piece::new(color, Role::Rook))
            && self.board.piece_at(king) == Some(Piece::new(color, self.variant.royal()))
    }

    /// The square behind `ep` holds the opponent's pawn that just stepped two, and the squares
    /// it passed are empty.
    fn ep_fits(&self, ep: Square) -> bool {
        let them = !self.turn;
        let (Some(pawn), Some(origin)) = (ep.offset(0, them.forward()), ep.offset(0, -them.forward())) else {
            return false;
        };
        self.geo.contains(pawn)
            && self.geo.contains(origin)
            && self.board.piece_at(pawn) == Some(Piece::new(them, Role::Pawn))
            && !self.board.occupied().contains(ep)
            // In Grolman Chess a chain follower may already stand where the pawn started.
            && (self.variant.has_chains() || !self.board.occupied().contains(origin))
            && self.variant.double_step_squares(them).contains(origin)
    }

    fn ep_usable(&self, ep: Square) -> bool {
        (self.geo.pawn_attacks(!self.turn, ep) & self.board.by_piece(Piece::new(self.turn, Role::Pawn))).any()
    }

    /// Every piece of `color` that attacks `sq` with the board's pieces standing on `occupied`
    /// (pieces off `occupied` still count as attackers: callers remove them as needed).
    pub fn attackers(&self, sq: Square, color: Color, occupied: Bitboard) -> Bitboard {
        let b = &self.board;
        let g = self.geo;
        let theirs = b.by_color(color);
        let mut att = (g.pawn_attacks(!color, sq) & b.by_role(Role::Pawn))
            | (g.knight_attacks(sq) & (b.by_role(Role::Knight) | b.by_role(Role::Chancellor)))
            | (g.king_attacks(sq) & b.by_role(Role::King));
        let rooks = b.by_role(Role::Rook) | b.by_role(Role::Queen) | b.by_role(Role::Chancellor);
        if (rooks & theirs).any() {
            att |= g.rook_attacks(sq, occupied) & rooks;
        }
        let bishops = b.by_role(Role::Bishop) | b.by_role(Role::Queen) | b.by_role(Role::Unicorn);
        if (bishops & theirs).any() {
            att |= g.bishop_attacks(sq, occupied) & bishops;
        }
        if (b.by_role(Role::Unicorn) & theirs).any() {
            att |= g.nightrider_attacks(sq, occupied) & b.by_role(Role::Unicorn);
        }
        if (b.by_role(Role::Lion) & theirs).any() {
            att |= g.lion_attacks(sq) & b.by_role(Role::Lion);
        }
        let golems = b.by_role(Role::Golem) | b.by_role(Role::HalfGolem);
        if (golems & theirs).any() {
            att |= g.golem_attacks(sq, occupied) & golems;
        }
        if (b.by_role(Role::Werewolf) & theirs).any() {
            att |= g.werewolf_attacks(sq, occupied) & b.by_role(Role::Werewolf);
        }
        att & theirs
    }

    /// Whether `color`'s royal piece could be taken by the other side now (check; for the Ghost
    /// King, what the host warns of as a check).
    pub fn royal_attacked(&self, color: Color) -> bool {
        let Some(royal) = self.royal_square(color) else {
            return false;
        };
        let occ = self.board.occupied();
        if self.attackers(royal, !color, occ).any() {
            return true;
        }
        // The enemy Ghost King may take ours only where nothing of ours could take it back.
        self.variant.royal() == Role::GhostKing
            && self.royal_square(!color).is_some_and(|enemy| {
                let after = occ.without(enemy);
                (self.attackers(royal, color, after) - Bitboard::from(royal)).is_empty()
            })
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.royal_attacked(self.turn)
    }

    /// Plays a move that must be legal here (from [`Position::legal_moves`] or checked by
    /// [`Position::is_legal`]); anything else leaves a position the rules do not allow.
    ///
    /// ```
    /// use rules::{Position, Variant};
    ///
    /// let mut pos = Position::start(Variant::Chess);
    /// for text in ["e4", "c5", "Nf3"] {
    ///     let m = pos.parse_move(text)?;
    ///     pos.play_unchecked(&m);
    /// }
    /// assert_eq!(pos.fen(), "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    /// # Ok::<(), rules::MoveError>(())
    /// ```
    pub fn play_unchecked(&mut self, m: &Move) {
        let us = self.turn;
        let them = !us;
        self.ep_square = None;
        self.halfmoves += 1;
        let mut golem_taken = false;
        let mut cleared = Bitboard::from(m.from) | Bitboard::from(m.to);
        match m.kind {
            MoveKind::Castle { rook } => {
                let files = self.variant.castling_files().expect("castling variant");
                let side = usize::from(rook.file() != files.rook[0]);
                let rank = m.from.rank();
                self.board.discard(m.from);
                self.board.discard(rook);
                self.board.set(m.to, Piece::new(us, m.role));
                let rook_to = Square::new(files.rook_to[side], rank).expect("inside the frame");
                self.board.set(rook_to, Piece::new(us, Role::Rook));
                cleared |= Bitboard::from(rook);
            }
            MoveKind::EnPassant => {
                let passed = m.to.offset(0, them.forward()).expect("en passant square inside");
                self.board.discard(passed);
                self.board.discard(m.from);
                self.board.set(m.to, Piece::new(us, Role::Pawn));
                self.halfmoves = 0;
            }
            MoveKind::Normal | MoveKind::Hop { .. } => {
                if let MoveKind::Hop { over, .. } = m.kind {
                    self.board.discard(over);
                    cleared |= Bitboard::from(over);
                    self.halfmoves = 0;
                }
                self.board.discard(m.from);
                let mut role = m.promotion.unwrap_or(m.role);
                let mut lands = true;
                if let Some(taken) = self.board.discard(m.to) {
                    self.halfmoves = 0;
                    if taken.role.is_royal() {
                        // A captured Ghost King takes its side's castling rights with it.
                        cleared |= self.geo.ranks[self.geo.back_rank(them) as usize];
                    }
                    golem_taken = taken.role.is_golem_kind();
                    match self.variant.capture(m.role, taken.role) {
                        Capture::Plain => {}
                        Capture::Becomes(changed) => role = changed,
                        Capture::Repelled(changed) => {
                            self.board.set(m.to, Piece::new(them, changed));
                            lands = false;
                        }
                    }
                }
                if lands {
                    self.board.set(m.to, Piece::new(us, role));
                }
                if m.role == Role::Pawn {
                    self.halfmoves = 0;
                    if m.from.rank().abs_diff(m.to.rank()) == 2 {
                        let ep =
                            Square::new(m.from.file(), (m.from.rank() + m.to.rank()) / 2).expect("inside the frame");
                        if (self.geo.pawn_attacks(us, ep) & self.board.by_piece(Piece::new(them, Role::Pawn))).any() {
                            self.ep_square = Some(ep);
                        }
                    }
                }
            }
        }
        if !m.chain.is_empty() {
            self.play_chain(&m.chain);
        }
        if m.role.is_royal() {
            cleared |= self.geo.ranks[self.geo.back_rank(us) as usize];
        }
        self.castling = self.castling - cleared;
        self.golem_captured = golem_taken && self.variant.golem_restrictions();
        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = them;
    }

    /// The position with the turn passed to the other side and nothing moved: what a search's
    /// null-move pruning asks about. The en passant square and the Golem capture state lapse
    /// (no move was made, so no pawn just stepped two and no Golem-kind piece was just taken),
    /// and the fifty-move count goes on. Not a move of any variant: never play it in a game.
    ///
    /// ```
    /// use rules::{Color, Position, Variant};
    ///
    /// let pos = Position::from_fen(Variant::Chess, "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1")?;
    /// let passed = pos.null_move();
    /// assert_eq!(passed.turn(), Color::White);
    /// assert_eq!(passed.ep_square(), None);
    /// assert_eq!(passed.board(), pos.board());
    /// # Ok::<(), rules::PositionError>(())
    /// ```
    pub fn null_move(&self) -> Position {
        let mut next = self.clone();
        next.ep_square = None;
        next.golem_captured = false;
        next.halfmoves += 1;
        if next.turn == Color::Black {
            next.fullmoves += 1;
        }
        next.turn = !next.turn;
        next
    }

    /// The position after a move that must be legal here.
    pub fn after(&self, m: &Move) -> Position {
        let mut next = self.clone();
        next.play_unchecked(m);
        next
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({} {})", self.variant, self.fen())
    }
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.variant == other.variant && self.to_setup() == other.to_setup()
    }
}
