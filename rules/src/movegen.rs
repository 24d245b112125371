//! Legal move generation.
//!
//! One generator feeds a [`Sink`]: a list builder for play, or a counter for perft's last ply,
//! which adds whole target sets by population count instead of building moves.
//!
//! Legality (variants with a check rule): out of check, a piece that shields its king from no
//! line piece may make any move, so only pinned pieces, the king, and the moves that remove
//! something besides their target square (en passant, a Werewolf's hop) are looked at one by
//! one. In check, every candidate is played on a copy and tested.

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::role::{Piece, Role};
use crate::square::Square;
use crate::variants::{dispatch, Rules};

/// Receives generated moves.
pub(crate) trait Sink {
    /// Ordinary moves of `role` from `from` to each of `targets` (no promotion).
    fn targets(&mut self, pos: &Position, role: Role, from: Square, targets: Bitboard);
    /// Pawn moves to `targets`, with promotions on the last rank.
    fn pawn_targets(&mut self, pos: &Position, from: Square, targets: Bitboard);
    fn push(&mut self, m: Move);
}

pub(crate) struct Collect<'a>(pub &'a mut Vec<Move>);

impl Sink for Collect<'_> {
    #[inline]
    fn targets(&mut self, pos: &Position, role: Role, from: Square, targets: Bitboard) {
        for to in targets {
            self.0.push(Move::new(role, from, to, pos.board.role_at(to)));
        }
    }

    fn pawn_targets(&mut self, pos: &Position, from: Square, targets: Bitboard) {
        let last = pos.geo.last_rank(pos.turn);
        for to in targets {
            let capture = pos.board.role_at(to);
            let m = Move::new(Role::Pawn, from, to, capture);
            if last.contains(to) && !capture.is_some_and(|c| pos.capture_transforms(c)) {
                for &promotion in pos.variant.promotions() {
                    self.0.push(Move { promotion: Some(promotion), ..m });
                }
            } else {
                self.0.push(m);
            }
        }
    }

    #[inline]
    fn push(&mut self, m: Move) {
        self.0.push(m);
    }
}

pub(crate) struct Count(pub u64);

impl Sink for Count {
    #[inline]
    fn targets(&mut self, _: &Position, _: Role, _: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }

    #[inline]
    fn pawn_targets(&mut self, pos: &Position, _: Square, targets: Bitboard) {
        let last = pos.geo.last_rank(pos.turn);
        let transforming = pos.transforming_targets();
        let promoting = targets & (last - transforming);
        self.0 += u64::from((targets - promoting).count())
            + u64::from(promoting.count()) * pos.variant.promotions().len() as u64;
    }

    #[inline]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
}

impl Position {
    /// Every legal move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(64);
        self.legal_moves_into(&mut moves);
        moves
    }

    /// Every legal move, into `moves` (emptied first): a caller that generates at every node,
    /// like a search, keeps its lists and reuses their memory instead of allocating each time.
    ///
    /// ```
    /// use rules::{Position, Variant};
    ///
    /// let mut moves = Vec::new();
    /// Position::start(Variant::Chess).legal_moves_into(&mut moves);
    /// Position::start(Variant::UnicornGreat).legal_moves_into(&mut moves);
    /// assert_eq!(moves, Position::start(Variant::UnicornGreat).legal_moves());
    /// ```
    pub fn legal_moves_into(&self, moves: &mut Vec<Move>) {
        moves.clear();
        self.generate(&mut Collect(moves));
    }

    /// The legal moves that change material: captures (a Werewolf's hop that takes, a
    /// Werewolf taken and its taker converted, a Golem hit that costs its capturer, en
    /// passant) and promotions (a Grolman turn counts when its lead move captures or promotes,
    /// or its chain promotes). What a search's quiescence looks at.
    ///
    /// ```
    /// use rules::{Position, Variant};
    ///
    /// let pos = Position::from_fen(Variant::Golem, "4k3/8/8/8/5g2/8/4N3/4K3 w - - 0 1")?;
    /// let noisy: Vec<String> = pos.noisy_moves().iter().map(|m| pos.san(m)).collect();
    /// assert_eq!(noisy, ["Nxf4=H"]);
    /// # Ok::<(), rules::PositionError>(())
    /// ```
    pub fn noisy_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.noisy_moves_into(&mut moves);
        moves
    }

    /// [`Position::noisy_moves`] into `moves` (emptied first), as
    /// [`Position::legal_moves_into`].
    pub fn noisy_moves_into(&self, moves: &mut Vec<Move>) {
        self.legal_moves_into(moves);
        moves.retain(Move::is_noisy);
    }

    /// The number of legal moves, without building them.
    pub fn count_legal(&self) -> u64 {
        let mut count = Count(0);
        self.generate(&mut count);
        count.0
    }

    /// Whether `m` is legal here, judged directly (its shape, then the position it leaves),
    /// independently of the generator's shortcuts.
    pub fn is_legal(&self, m: &Move) -> bool {
        !self.is_decided() && dispatch!(self.variant, R => R::is_legal(self, m))
    }

    /// Whether `m` is among the moves by the pieces' movement and leaves the mover's royal
    /// piece safe where the variant requires it.
    pub(crate) fn is_legal_by_movement<R: Rules + ?Sized>(&self, m: &Move, lift_r1: bool) -> bool {
        self.moves_by_movement::<R>(lift_r1).contains(m) && self.is_safe(m)
    }

    /// Whether any move by the pieces' movement is legal.
    pub(crate) fn any_legal_by_movement<R: Rules + ?Sized>(&self, lift_r1: bool) -> bool {
        self.moves_by_movement::<R>(lift_r1).iter().any(|m| self.is_safe(m))
    }

    fn moves_by_movement<R: Rules + ?Sized>(&self, lift_r1: bool) -> Vec<Move> {
        let mut moves = Vec::new();
        self.generate_pseudo::<R, _>(&mut Collect(&mut moves), true, lift_r1);
        moves
    }

    /// Every move by the pieces' movement, ignoring check (`castle`: with castling whatever
    /// attacks its path; `lift_r1`: without Golem Chess's restriction 1).
    pub(crate) fn pseudo_moves(&self, castle: bool, lift_r1: bool) -> Vec<Move> {
        let mut moves = Vec::new();
        dispatch!(self.variant, R => self.generate_pseudo::<R, _>(&mut Collect(&mut moves), castle, lift_r1));
        moves
    }

    fn is_safe(&self, m: &Move) -> bool {
        self.keeps_royal_safe(m) && self.castling_path_safe(m)
    }

    /// A game already decided by a capture of the royal piece, or (Grolman) a turn that left
    /// the mover's own king attacked: nothing more can be played.
    pub fn is_decided(&self) -> bool {
        self.decided_outcome().is_some()
    }

    /// Pieces of the opponent that a pawn taking on the last rank does not promote over:
    /// capturing them changes the pawn in another way.
    #[inline]
    fn transforming_targets(&self) -> Bitboard {
        match self.variant.transformed_by_capture() {
            Some(role) => self.board.by_role(role),
            None => Bitboard::EMPTY,
        }
    }

    /// Whether taking a piece of `role` changes the capturer (so a pawn does not promote).
    #[inline]
    pub(crate) fn capture_transforms(&self, role: Role) -> bool {
        self.variant.transformed_by_capture() == Some(role)
    }

    /// Feeds every legal move to `sink`, in the generator's copy for this CPU (`crate::cpu`).
    pub(crate) fn generate<S: Sink>(&self, sink: &mut S) {
        if self.is_decided() {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::wide() {
            // SAFETY: `wide()` found every feature `generate_wide` is compiled with.
            return unsafe { generate_wide(self, sink) };
        }
        generate_any(self, sink);
    }

    /// Where a piece of ours on `from` may move or capture by its movement (no castling, no en
    /// passant, no hop captures).
    #[inline(always)] // into both copies of the generator (`generate`)
    fn piece_targets<R: Rules + ?Sized>(&self, role: Role, from: Square, occ: Bitboard, ours: Bitboard) -> Bitboard {
        let g = self.geo;
        let reach = match role {
            Role::Knight => g.knight_attacks(from),
            Role::Bishop => g.bishop_attacks(from, occ),
            Role::Rook => g.rook_attacks(from, occ),
            Role::Queen => g.queen_attacks(from, occ),
            Role::King => g.king_attacks(from),
            Role::Golem | Role::HalfGolem => g.golem_attacks(from, occ),
            Role::Werewolf => g.werewolf_attacks(from, occ),
            Role::Unicorn => g.bishop_attacks(from, occ) | g.nightrider_attacks(from, occ),
            Role::Chancellor => g.rook_attacks(from, occ) | g.knight_attacks(from),
            Role::Lion => g.lion_attacks(from),
            Role::GhostKing => self.ghost_king_targets(from, occ),
            Role::Pawn => R::pawn_targets(self, from, occ),
        };
        reach - ours
    }

    /// A pawn's captures, its step and its double step.
    #[inline(always)] // see Rules::pawn_targets
    pub(crate) fn pawn_pushes_and_captures(&self, from: Square, occ: Bitboard) -> Bitboard {
        let us = self.turn;
        let g = self.geo;
        let mut out = g.pawn_attacks(us, from) & self.board.by_color(!us);
        let one = Bitboard::from(from).shift_ranks(us.forward()) & (g.all - occ);
        out |= one;
        if one.any() && dispatch!(self.variant, R => R::double_step_squares(self.geo, us)).contains(from) {
            out |= one.shift_ranks(us.forward()) & (g.all - occ);
        }
        out
    }

    fn en_passant<S: Sink>(&self, sink: &mut S, safe: impl Fn(&Move) -> bool) {
        let Some(ep) = self.ep_square else { return };
        let pawns = self.board.by_piece(Piece::new(self.turn, Role::Pawn));
        for from in self.geo.pawn_attacks(!self.turn, ep) & pawns {
            let m = Move { kind: MoveKind::EnPassant, ..Move::new(Role::Pawn, from, ep, Some(Role::Pawn)) };
            if safe(&m) {
                sink.push(m);
            }
        }
    }

    /// Castling moves whose king path (the squares it crosses and lands on) satisfies `path_safe`.
    fn castles<S: Sink>(&self, sink: &mut S, path_safe: impl Fn(Bitboard) -> bool) {
        let Some(files) = self.variant.castling_files() else {
            return;
        };
        let us = self.turn;
        let rank = self.geo.back_rank(us);
        let rights = self.castling & self.geo.ranks[rank as usize];
        if rights.is_empty() {
            return;
        }
        let king = Square::new(files.king, rank).expect("inside the frame");
        let occ = self.board.occupied();
        for side in 0..2 {
            let rook = Square::new(files.rook[side], rank).expect("inside the frame");
            if !rights.contains(rook) {
                continue;
            }
            let king_to = Square::new(files.king_to[side], rank).expect("inside the frame");
            let rook_to = Square::new(files.rook_to[side], rank).expect("inside the frame");
            let must_be_empty = (self.geo.between(king, rook) | Bitboard::from(king_to) | Bitboard::from(rook_to))
                - Bitboard::from(king)
                - Bitboard::from(rook);
            if (must_be_empty & occ).any() {
                continue;
            }
            let m = Move { kind: MoveKind::Castle { rook }, ..Move::new(self.variant.royal(), king, king_to, None) };
            if path_safe(self.geo.between(king, king_to) | Bitboard::from(king_to)) && self.keeps_royal_safe(&m) {
                sink.push(m);
            }
        }
    }

    /// Every move by the pieces' movement, ignoring check (`castle`: with castling, whose
    /// attack conditions are left to the caller).
    #[inline(always)] // into both copies of the generator (`generate`)
    pub(crate) fn generate_pseudo<R: Rules + ?Sized, S: Sink>(&self, sink: &mut S, castle: bool, lift_r1: bool) {
        let ours = self.board.by_color(self.turn);
        let occ = self.board.occupied();
        for from in ours {
            let role = self.board.role_at(from).expect("own piece");
            let targets =
                self.piece_targets::<R>(role, from, occ, ours) - R::forbidden_targets(self, role, from, lift_r1);
            if role == Role::Pawn {
                sink.pawn_targets(self, from, targets);
            } else {
                sink.targets(self, role, from, targets);
            }
            if role == Role::Werewolf {
                self.werewolf_hops(sink, from, |_| true);
            }
        }
        self.en_passant(sink, |_| true);
        if castle {
            self.castles(sink, |_| true);
        }
    }

    /// After `m`, is the mover's royal piece out of reach (variants with a check rule)?
    pub(crate) fn keeps_royal_safe(&self, m: &Move) -> bool {
        if !self.variant.has_check_rule() {
            return true;
        }
        let after = self.after(m);
        !after.royal_attacked(self.turn)
    }

    /// Castling's attack conditions: not out of, through or into check.
    fn castling_path_safe(&self, m: &Move) -> bool {
        if !m.is_castle() || !self.variant.has_check_rule() {
            return true;
        }
        let occ = self.board.occupied().without(m.from);
        !self.is_check()
            && (self.geo.between(m.from, m.to) | Bitboard::from(m.to))
                .all_squares(|sq| self.attackers(sq, !self.turn, occ).is_empty())
    }

    /// Our pieces that alone stand between our royal piece and an enemy piece that would
    /// attack it through them.
    #[inline(always)] // into both copies of the generator (`generate`)
    fn pin_blockers(&self, king: Square) -> Bitboard {
        let b = &self.board;
        let g = self.geo;
        let them = b.by_color(!self.turn);
        let occ = b.occupied();
        let rooks = (b.by_role(Role::Rook) | b.by_role(Role::Queen) | b.by_role(Role::Chancellor)) & them;
        let bishops = (b.by_role(Role::Bishop) | b.by_role(Role::Queen) | b.by_role(Role::Unicorn)) & them;
        let mut snipers =
            (g.rook_attacks(king, Bitboard::EMPTY) & rooks) | (g.bishop_attacks(king, Bitboard::EMPTY) & bishops);
        let riders = b.by_role(Role::Unicorn) & them;
        if riders.any() {
            snipers |= g.nightrider_attacks(king, Bitboard::EMPTY) & riders;
        }
        let mut blockers = Bitboard::EMPTY;
        for sniper in snipers {
            let between = g.between(king, sniper) & occ;
            if !between.more_than_one() {
                blockers |= between;
            }
        }
        let wolves = b.by_role(Role::Werewolf) & them;
        let golems = (b.by_role(Role::Golem) | b.by_role(Role::HalfGolem)) & them;
        if wolves.any() || golems.any() {
            for d in 0..8 {
                let [s1, s2, s3] = *g.steps(king, d);
                if (s3 & wolves).any() && !((s1 | s2) & occ).more_than_one() {
                    blockers |= (s1 | s2) & occ;
                }
                if (s2 & golems).any() {
                    blockers |= s1 & occ;
                }
            }
        }
        blockers & b.by_color(self.turn)
    }

    #[inline(always)] // into both copies of the generator (`generate`)
    pub(crate) fn generate_checked<R: Rules + ?Sized, S: Sink>(&self, sink: &mut S, lift_r1: bool) {
        let us = self.turn;
        let king = self.royal_square(us).expect("validated position has a king");
        let occ = self.board.occupied();
        let ours = self.board.by_color(us);
        if self.attackers(king, !us, occ).any() {
            // Evasions: few enough to try one by one.
            let mut pseudo = Vec::with_capacity(64);
            self.generate_pseudo::<R, _>(&mut Collect(&mut pseudo), false, lift_r1);
            for m in pseudo {
                if self.keeps_royal_safe(&m) {
                    sink.push(m);
                }
            }
            return;
        }
        let blockers = self.pin_blockers(king);
        let safe = |m: &Move| self.keeps_royal_safe(m);
        // A pinned piece that keeps to its pin line stays a shield, unless it can jump along
        // the line past the pinner or its own king (Werewolf, Lion), or its capture removes it
        // (Golem Chess): those pinned moves are tried one by one.
        let line_pins_suffice = R::LINE_PINS_SUFFICE;
        for from in ours.without(king) {
            let role = self.board.role_at(from).expect("own piece");
            let mut targets =
                self.piece_targets::<R>(role, from, occ, ours) - R::forbidden_targets(self, role, from, lift_r1);
            if blockers.contains(from) {
                if line_pins_suffice && !matches!(role, Role::Werewolf | Role::Lion) {
                    targets &= self.geo.line(king, from);
                } else {
                    let mut each = Vec::new();
                    let mut collect = Collect(&mut each);
                    if role == Role::Pawn {
                        collect.pawn_targets(self, from, targets);
                    } else {
                        collect.targets(self, role, from, targets);
                    }
                    for m in each.into_iter().filter(|m| safe(m)) {
                        sink.push(m);
                    }
                    if role == Role::Werewolf {
                        self.werewolf_hops(sink, from, safe);
                    }
                    continue;
                }
            }
            if role == Role::Pawn {
                sink.pawn_targets(self, from, targets);
            } else {
                sink.targets(self, role, from, targets);
            }
            if role == Role::Werewolf {
                self.werewolf_hops(sink, from, safe);
            }
        }
        let without_king = occ.without(king);
        let king_targets = (self.geo.king_attacks(king) - ours - R::forbidden_targets(self, Role::King, king, lift_r1))
            .filter_squares(|to| self.attackers(to, !us, without_king).is_empty());
        sink.targets(self, Role::King, king, king_targets);
        self.en_passant(sink, safe);
        // The squares the king crosses must be safe as they stand; where it lands, as the board
        // is after castling (a rook leaving b1 or i1 can open the rank to an enemy beyond it).
        self.castles(sink, |path| path.all_squares(|sq| self.attackers(sq, !us, without_king).is_empty()));
    }
}

crate::wide! {
    fn generate_wide<S: Sink>(pos: &Position, sink: &mut S) {
        generate_any(pos, sink);
    }
}

/// The whole generator, for any CPU: its parts are `#[inline(always)]`, so that each copy
/// (this one, and [`generate_wide`] where it is compiled in) holds all of it.
#[inline(always)]
fn generate_any<S: Sink>(pos: &Position, sink: &mut S) {
    dispatch!(pos.variant, R => R::generate(pos, sink));
}
