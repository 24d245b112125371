//! Grolman Chess turns: a lead move, then the forced chain of followers.
//!
//! Whenever a square of the mover's is vacated, an unmoved friendly piece that can step into it
//! by a non-capturing move must do so, the weakest kind first (P < N < B < R < Q < K); ties
//! within that kind are the player's choice, and so is a chain pawn's promotion. Every
//! resulting chain is a distinct turn. Enemy pieces never move during the chain, so it is
//! worked out on a shadow of the board that holds only what a follower's move depends on: the
//! occupied squares and our pieces by kind.

use crate::bitboard::Bitboard;
use crate::movegen::{Collect, Sink};
use crate::moves::{Chain, Move, MoveKind, Step};
use crate::position::Position;
use crate::role::{Color, Piece, Role};
use crate::square::Square;

impl Position {
    /// Every legal turn: each lead move with each chain it can set off.
    pub(crate) fn generate_turns<S: Sink>(&self, sink: &mut S) {
        let shadow = Shadow::of(self);
        if self.is_check() {
            for lead in self.lead_moves() {
                self.for_each_chain(&shadow, &lead, |chain| sink.push(Move { chain: *chain, ..lead }));
            }
        } else {
            // Out of check every lead is allowed: chains are worked out as leads are generated.
            self.generate_pseudo(&mut Turns { pos: self, shadow, inner: sink }, false, false);
        }
    }

    /// Lead moves: every move by the pieces' movement (no castling in Grolman Chess); in check,
    /// only those after which the king is no longer attacked.
    fn lead_moves(&self) -> Vec<Move> {
        let mut leads = Vec::with_capacity(48);
        self.generate_pseudo(&mut Collect(&mut leads), false, false);
        if self.is_check() {
            leads.retain(|lead| !self.after(lead).royal_attacked(self.turn));
        }
        leads
    }

    /// Every legal turn that starts with `lead` (its chain ignored): what a host offers when
    /// a lead move alone leaves choices open. Empty when `lead` is no legal lead move here.
    pub fn turns_from_lead(&self, lead: &Move) -> Vec<Move> {
        let lead = Move { chain: Chain::EMPTY, ..*lead };
        let mut turns = Vec::new();
        if !self.is_decided() && self.lead_moves().contains(&lead) {
            let shadow = Shadow::of(self);
            self.for_each_chain(&shadow, &lead, |chain| turns.push(Move { chain: *chain, ..lead }));
        }
        turns
    }

    pub(crate) fn is_legal_turn(&self, m: &Move) -> bool {
        self.turns_from_lead(m).contains(m)
    }

    /// Calls `visit` with every chain that `lead` sets off from the position `before` shadows.
    fn for_each_chain(&self, before: &Shadow, lead: &Move, mut visit: impl FnMut(&Chain)) {
        let mut shadow = *before;
        if lead.kind == MoveKind::EnPassant {
            let passed = lead.to.offset(0, -self.turn.forward()).expect("en passant square inside");
            shadow.occupied = shadow.occupied.without(passed);
        }
        shadow.shift(lead.role, lead.from, lead.to, lead.promotion);
        let mut follow = Follow {
            pos: self,
            us: self.turn,
            moved: Bitboard::from(lead.to),
            chain: Chain::EMPTY,
            double_step: self.variant.double_step_squares(self.turn),
        };
        follow.extend(&mut shadow, lead.from, &mut visit);
    }
}

/// Expands each lead move it receives into its turns.
struct Turns<'a, S> {
    pos: &'a Position,
    shadow: Shadow,
    inner: &'a mut S,
}

impl<S: Sink> Turns<'_, S> {
    #[inline]
    fn lead(&mut self, lead: Move) {
        let inner = &mut *self.inner;
        self.pos.for_each_chain(&self.shadow, &lead, |chain| inner.push(Move { chain: *chain, ..lead }));
    }
}

impl<S: Sink> Sink for Turns<'_, S> {
    fn targets(&mut self, pos: &Position, role: Role, from: Square, targets: Bitboard) {
        for to in targets {
            self.lead(Move::new(role, from, to, pos.board.role_at(to)));
        }
    }

    fn pawn_targets(&mut self, pos: &Position, from: Square, targets: Bitboard) {
        let last = pos.geo.last_rank(pos.turn);
        for to in targets {
            let m = Move::new(Role::Pawn, from, to, pos.board.role_at(to));
            if last.contains(to) {
                for &promotion in pos.variant.promotions() {
                    self.lead(Move { promotion: Some(promotion), ..m });
                }
            } else {
                self.lead(m);
            }
        }
    }

    fn push(&mut self, m: Move) {
        self.lead(m)
    }
}

/// What a follower's move depends on: which squares are taken, and where our pieces of each
/// kind stand (Grolman Chess has the six FIDE kinds, pawn to king in [`Role`] order).
#[derive(Copy, Clone)]
struct Shadow {
    occupied: Bitboard,
    ours: [Bitboard; 6],
}

impl Shadow {
    fn of(pos: &Position) -> Shadow {
        let b = &pos.board;
        let mine = b.by_color(pos.turn);
        let role = |r: Role| b.by_role(r) & mine;
        Shadow {
            occupied: b.occupied(),
            ours: [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King].map(role),
        }
    }

    /// Moves our `role` from `from` to `to` (taking whatever stood there), as `promotion` if set.
    #[inline]
    fn shift(&mut self, role: Role, from: Square, to: Square, promotion: Option<Role>) {
        let to_bb = Bitboard::from(to);
        for kind in &mut self.ours {
            *kind = *kind - to_bb;
        }
        self.ours[role.index()] ^= Bitboard::from(from);
        self.ours[promotion.unwrap_or(role).index()] |= to_bb;
        self.occupied = self.occupied.without(from) | to_bb;
    }

    #[inline]
    fn mine(&self, role: Role) -> Bitboard {
        self.ours[role.index()]
    }
}

/// The state of a chain being worked out.
struct Follow<'a> {
    pos: &'a Position,
    us: Color,
    /// Our pieces that have moved this turn (by their current squares).
    moved: Bitboard,
    chain: Chain,
    /// Where our pawns may step two from.
    double_step: Bitboard,
}

impl Follow<'_> {
    /// Fills `vacated` with each possible follower in turn, then goes on from the square that
    /// follower left; a chain with no follower is complete.
    fn extend(&mut self, shadow: &mut Shadow, vacated: Square, visit: &mut impl FnMut(&Chain)) {
        let (role, candidates) = self.followers(shadow, vacated);
        if candidates.is_empty() {
            visit(&self.chain);
            return;
        }
        let promotions: &[Option<Role>] =
            if role == Role::Pawn && self.pos.geo.last_rank(self.us).contains(vacated) { &PROMOTIONS } else { &[None] };
        let before = *shadow;
        self.moved = self.moved.with(vacated);
        for from in candidates {
            for &promotion in promotions {
                shadow.shift(role, from, vacated, promotion);
                self.chain.push(Step { role, from, to: vacated, promotion });
                self.extend(shadow, from, visit);
                self.chain.pop();
                *shadow = before;
            }
        }
        self.moved = self.moved.without(vacated);
    }

    /// The weakest kind among our unmoved pieces that can step into `to`, and which ones.
    #[inline]
    fn followers(&self, shadow: &Shadow, to: Square) -> (Role, Bitboard) {
        let g = self.pos.geo;
        let occ = shadow.occupied;
        let mine = |role: Role| shadow.mine(role) - self.moved;

        let found = self.pawn_sources(to, occ) & mine(Role::Pawn);
        if found.any() {
            return (Role::Pawn, found);
        }
        let found = g.knight_attacks(to) & mine(Role::Knight);
        if found.any() {
            return (Role::Knight, found);
        }
        // Sliders: look along a line only when one of ours stands somewhere on it.
        let (bishops, rooks, queens) = (mine(Role::Bishop), mine(Role::Rook), mine(Role::Queen));
        let diagonal =
            if (g.bishop_lines(to) & (bishops | queens)).any() { g.bishop_attacks(to, occ) } else { Bitboard::EMPTY };
        if (diagonal & bishops).any() {
            return (Role::Bishop, diagonal & bishops);
        }
        let straight =
            if (g.rook_lines(to) & (rooks | queens)).any() { g.rook_attacks(to, occ) } else { Bitboard::EMPTY };
        if (straight & rooks).any() {
            return (Role::Rook, straight & rooks);
        }
        if ((diagonal | straight) & queens).any() {
            return (Role::Queen, (diagonal | straight) & queens);
        }
        (Role::King, g.king_attacks(to) & mine(Role::King))
    }

    /// Squares from which one of our pawns could push into the empty square `to`: one step, or
    /// two from a double-step square over an empty one.
    #[inline]
    fn pawn_sources(&self, to: Square, occ: Bitboard) -> Bitboard {
        let back = -self.us.forward();
        let one = Bitboard::from(to).shift_ranks(back);
        one | (one - occ).shift_ranks(back) & self.double_step
    }
}

const PROMOTIONS: [Option<Role>; 4] = [Some(Role::Queen), Some(Role::Rook), Some(Role::Bishop), Some(Role::Knight)];

impl Position {
    /// Plays the followers of a Grolman turn after its lead move: the last pawn double step of
    /// the turn sets the en passant square.
    pub(crate) fn play_chain(&mut self, chain: &Chain) {
        let us = self.turn;
        for step in chain.steps() {
            self.board.discard(step.from);
            self.board.set(step.to, Piece::new(us, step.promotion.unwrap_or(step.role)));
            if step.role == Role::Pawn {
                self.halfmoves = 0;
                if step.from.rank().abs_diff(step.to.rank()) == 2 {
                    let ep = Square::new(step.from.file(), (step.from.rank() + step.to.rank()) / 2)
                        .expect("inside the frame");
                    let enemy_pawns = self.board.by_piece(Piece::new(!us, Role::Pawn));
                    self.ep_square = (self.geo.pawn_attacks(us, ep) & enemy_pawns).any().then_some(ep);
                }
            }
        }
    }
}
