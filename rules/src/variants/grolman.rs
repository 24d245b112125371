//! Grolman Chess: a turn is a lead move, then the forced chain of followers. There is no
//! castling and no check rule: a turn that leaves its own king attacked is legal but loses.
//!
//! Whenever a square of the mover's is vacated, an unmoved friendly piece that can step into it
//! by a non-capturing move must do so, the weakest kind first (P < N < B < R < Q < K); ties
//! within that kind are the player's choice, and so is a chain pawn's promotion. Every
//! resulting chain is a distinct turn. Enemy pieces never move during the chain, so it is
//! worked out on a shadow of the board that holds only what a follower's move depends on: the
//! occupied squares and our pieces by kind.

use std::sync::LazyLock;

use super::{CastlingFiles, Rules};
use crate::bitboard::Bitboard;
use crate::geometry::{Geometry, BISHOP_DIRS, ROOK_DIRS, SMALL};
use crate::movegen::{Collect, Sink};
use crate::moves::{Chain, Move, MoveKind, Step};
use crate::outcome::{Outcome, WinReason};
use crate::position::Position;
use crate::role::{Color, Piece, Role};
use crate::square::Square;

pub(crate) struct Grolman;

impl Rules for Grolman {
    const ID: &'static str = "grolman";
    const NAME: &'static str = "Grolman Chess";
    const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
    const CASTLING: Option<CastlingFiles> = None;
    const CHECK_RULE: bool = false;
    const CHAINS: bool = true;

    fn generate<S: Sink>(pos: &Position, sink: &mut S) {
        pos.generate_turns(sink);
    }

    fn is_legal(pos: &Position, m: &Move) -> bool {
        pos.turns_from_lead(m).contains(m)
    }

    /// A turn that left the mover's own king attacked has lost.
    fn decided(pos: &Position) -> Option<Outcome> {
        pos.royal_attacked(!pos.turn)
            .then_some(Outcome::Decisive { winner: pos.turn, reason: WinReason::KingLeftAttacked })
    }

    /// Bare kings only: a king and a knight can already force a win, since a turn with no safe
    /// move must still be played.
    fn is_insufficient_material(pos: &Position) -> bool {
        (pos.board.occupied() - pos.board.by_role(Role::King)).is_empty()
    }

    /// Always: even a bare king wins when the opponent's king walks up to it.
    fn can_win(_: &Position, _: Color) -> bool {
        true
    }
}

impl Position {
    /// Every legal turn: each lead move with each chain it can set off.
    fn generate_turns<S: Sink>(&self, sink: &mut S) {
        let shadow = Shadow::of(self);
        if self.is_check() {
            for lead in self.lead_moves() {
                self.for_each_chain(&shadow, &lead, |chain| sink.push(Move { chain: *chain, ..lead }));
            }
        } else {
            // Out of check every lead is allowed: chains are worked out as leads are generated.
            self.generate_pseudo::<Grolman, _>(&mut Turns { pos: self, shadow, inner: sink }, false, false);
        }
    }

    /// Lead moves: every move by the pieces' movement (no castling in Grolman Chess); in check,
    /// only those after which the king is no longer attacked.
    fn lead_moves(&self) -> Vec<Move> {
        let mut leads = Vec::with_capacity(48);
        self.generate_pseudo::<Grolman, _>(&mut Collect(&mut leads), false, false);
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

    /// Calls `visit` with every chain that `lead` sets off from the position `before` shadows.
    fn for_each_chain(&self, before: &Shadow, lead: &Move, mut visit: impl FnMut(&Chain)) {
        let mut shadow = *before;
        if lead.kind == MoveKind::EnPassant {
            let passed = lead.to.offset(0, -self.turn.forward()).expect("en passant square inside");
            shadow.occupied &= !(1 << index(passed));
        }
        shadow.shift(lead.role, index(lead.from), index(lead.to), lead.promotion);
        let mut follow = Follow { us: self.turn, moved: 1 << index(lead.to), chain: Chain::EMPTY };
        follow.extend(&mut shadow, index(lead.from), &mut visit);
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
/// kind stand (Grolman Chess has the six FIDE kinds, pawn to king in [`Role`] order). Grolman
/// Chess is played on 8x8 only, so the shadow uses 64-bit sets numbered rank * 8 + file: the
/// search below is the variant's hot loop, and half-width words halve its work.
#[derive(Copy, Clone)]
struct Shadow {
    occupied: u64,
    ours: [u64; 6],
    /// Where our pawns may step two from, and the rank they promote on.
    double_step: u64,
    last_rank: u64,
}

impl Shadow {
    fn of(pos: &Position) -> Shadow {
        let b = &pos.board;
        let mine = b.by_color(pos.turn);
        let role = |r: Role| compact(b.by_role(r) & mine);
        Shadow {
            occupied: compact(b.occupied()),
            ours: [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King].map(role),
            double_step: compact(pos.variant.double_step_squares(pos.turn)),
            last_rank: compact(pos.geo.last_rank(pos.turn)),
        }
    }

    /// Moves our `role` from `from` to `to` (taking whatever stood there), as `promotion` if set.
    #[inline]
    fn shift(&mut self, role: Role, from: u32, to: u32, promotion: Option<Role>) {
        let to_bb = 1u64 << to;
        for kind in &mut self.ours {
            *kind &= !to_bb;
        }
        self.ours[role.index()] ^= 1 << from;
        self.ours[promotion.unwrap_or(role).index()] |= to_bb;
        self.occupied = (self.occupied & !(1 << from)) | to_bb;
    }
}

/// The state of a chain being worked out.
struct Follow {
    us: Color,
    /// Our pieces that have moved this turn (by their current squares).
    moved: u64,
    chain: Chain,
}

impl Follow {
    /// Fills `vacated` with each possible follower in turn, then goes on from the square that
    /// follower left; a chain with no follower is complete.
    fn extend(&mut self, shadow: &mut Shadow, vacated: u32, visit: &mut impl FnMut(&Chain)) {
        let (role, mut candidates) = self.followers(shadow, vacated);
        if candidates == 0 {
            visit(&self.chain);
            return;
        }
        let promotions: &[Option<Role>] =
            if role == Role::Pawn && shadow.last_rank & (1 << vacated) != 0 { &PROMOTIONS } else { &[None] };
        let before = *shadow;
        self.moved |= 1 << vacated;
        while candidates != 0 {
            let from = candidates.trailing_zeros();
            candidates &= candidates - 1;
            for &promotion in promotions {
                shadow.shift(role, from, vacated, promotion);
                self.chain.push(Step { role, from: square(from), to: square(vacated), promotion });
                self.extend(shadow, from, visit);
                self.chain.pop();
                *shadow = before;
            }
        }
        self.moved &= !(1 << vacated);
    }

    /// The weakest kind among our unmoved pieces that can step into `to`, and which ones.
    #[inline]
    fn followers(&self, shadow: &Shadow, to: u32) -> (Role, u64) {
        let t = &*TABLES;
        let i = to as usize;
        let occ = shadow.occupied;
        let mine = |role: Role| shadow.ours[role.index()] & !self.moved;

        let found = self.pawn_sources(to, shadow) & mine(Role::Pawn);
        if found != 0 {
            return (Role::Pawn, found);
        }
        let found = t.knight[i] & mine(Role::Knight);
        if found != 0 {
            return (Role::Knight, found);
        }
        // Sliders: look along a line only when one of ours stands somewhere on it.
        let (bishops, rooks, queens) = (mine(Role::Bishop), mine(Role::Rook), mine(Role::Queen));
        let diagonal = if t.bishop_lines[i] & (bishops | queens) != 0 { t.slide(i, BISHOP_DIRS, occ) } else { 0 };
        if diagonal & bishops != 0 {
            return (Role::Bishop, diagonal & bishops);
        }
        let straight = if t.rook_lines[i] & (rooks | queens) != 0 { t.slide(i, ROOK_DIRS, occ) } else { 0 };
        if straight & rooks != 0 {
            return (Role::Rook, straight & rooks);
        }
        if (diagonal | straight) & queens != 0 {
            return (Role::Queen, (diagonal | straight) & queens);
        }
        (Role::King, t.king[i] & mine(Role::King))
    }

    /// Squares from which one of our pawns could push into the empty square `to`: one step, or
    /// two from a double-step square over an empty one.
    #[inline]
    fn pawn_sources(&self, to: u32, shadow: &Shadow) -> u64 {
        let back = |bb: u64| if self.us == Color::White { bb >> 8 } else { bb << 8 };
        let one = back(1 << to);
        one | (back(one & !shadow.occupied) & shadow.double_step)
    }
}

/// Attack tables on 64-bit sets, for the 8x8 board, derived once from the frame geometry.
struct Tables {
    knight: [u64; 64],
    king: [u64; 64],
    rays: [[u64; 8]; 64],
    bishop_lines: [u64; 64],
    rook_lines: [u64; 64],
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let g: &Geometry = &SMALL;
    let mut t =
        Tables { knight: [0; 64], king: [0; 64], rays: [[0; 8]; 64], bishop_lines: [0; 64], rook_lines: [0; 64] };
    for sq in g.all {
        let i = index(sq) as usize;
        t.knight[i] = compact(g.knight_attacks(sq));
        t.king[i] = compact(g.king_attacks(sq));
        for d in 0..8 {
            t.rays[i][d] = compact(g.ray(sq, d));
        }
        t.bishop_lines[i] = compact(g.bishop_lines(sq));
        t.rook_lines[i] = compact(g.rook_lines(sq));
    }
    t
});

impl Tables {
    /// Sliding attacks along four directions (the frame's direction numbering: the first four
    /// step towards higher squares, so their first blocker is the lowest bit).
    #[inline]
    fn slide(&self, i: usize, dirs: [usize; 4], occ: u64) -> u64 {
        dirs.iter().fold(0, |acc, &d| {
            let ray = self.rays[i][d];
            let blockers = ray & occ;
            acc | if blockers == 0 {
                ray
            } else {
                let first = if d < 4 { blockers.trailing_zeros() } else { 63 - blockers.leading_zeros() };
                ray ^ self.rays[first as usize][d]
            }
        })
    }
}

/// The 64-bit set of the squares of an 8x8 board's frame set: rank r's eight bits move from
/// frame bit 10r to bit 8r.
#[inline]
fn compact(bb: Bitboard) -> u64 {
    (0..8).fold(0, |acc, r| acc | ((((bb.0 >> (10 * r)) & 0xff) as u64) << (8 * r)))
}

#[inline]
fn index(sq: Square) -> u32 {
    u32::from(sq.rank()) * 8 + u32::from(sq.file())
}

#[inline]
fn square(i: u32) -> Square {
    Square::new((i % 8) as u8, (i / 8) as u8).expect("an 8x8 square")
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
