//! Golem Chess: the Golem (a two-step queen) survives its first hit as a Half-Golem, and a
//! piece hitting it is lost, unless it is a Golem, which becomes a Half-Golem itself. Captures
//! between Golem-kind pieces are restricted (docs/rules.md, "Trading restrictions"):
//!
//! 1. a Golem-kind piece may not take an enemy one two steps away that is defended;
//! 2. right after losing a Golem-kind piece, only Golem-kind pieces may take one;
//! 3. adjacent targets are free of restriction 1;
//! 4. when nothing else is legal, restriction 1 is lifted.
//!
//! A king never takes a Golem (it would be removed).

use super::{Capture, Rules};
use crate::bitboard::Bitboard;
use crate::movegen::Sink;
use crate::moves::Move;
use crate::position::Position;
use crate::role::Role;
use crate::square::Square;

pub(crate) struct Golem;

impl Rules for Golem {
    const ID: &'static str = "golem";
    const NAME: &'static str = "Golem Chess";
    const START_FEN: &'static str = "rnbgkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBGKBNR w KQkq - 0 1";
    const ROLES: &'static [Role] = {
        use Role::*;
        &[Pawn, Knight, Bishop, Rook, Queen, King, Golem, HalfGolem]
    };
    const PROMOTIONS: &'static [Role] = &[Role::Queen, Role::Golem, Role::Rook, Role::Bishop, Role::Knight];
    const TRANSFORMED_BY_CAPTURE: Option<Role> = Some(Role::Golem);
    const GOLEM_RESTRICTIONS: bool = true;
    // A capture of a Golem removes the capturer, which may unshield its king.
    const LINE_PINS_SUFFICE: bool = false;

    fn capture(mover: Role, taken: Role) -> Capture {
        match (mover, taken) {
            (Role::Golem, Role::Golem) => Capture::Becomes(Role::HalfGolem),
            (_, Role::Golem) => Capture::Repelled(Role::HalfGolem),
            _ => Capture::Plain,
        }
    }

    #[inline]
    fn forbidden_targets(pos: &Position, role: Role, from: Square, lift_r1: bool) -> Bitboard {
        let b = &pos.board;
        let enemy_golems = (b.by_role(Role::Golem) | b.by_role(Role::HalfGolem)) & b.by_color(!pos.turn);
        let mut forbidden = if role == Role::King { b.by_role(Role::Golem) } else { Bitboard::EMPTY };
        if enemy_golems.is_empty() {
            return forbidden;
        }
        if !role.is_golem_kind() {
            // Restriction 2.
            if pos.golem_captured {
                forbidden |= enemy_golems;
            }
        } else if !lift_r1 {
            // Restriction 1 (adjacent targets are free: restriction 3).
            let occ = b.occupied().without(from);
            forbidden |= (enemy_golems & pos.geo.ring2(from))
                .filter_squares(|target| pos.attackers(target, !pos.turn, occ).any());
        }
        forbidden
    }

    #[inline(always)] // into both copies of the generator (movegen.rs)
    fn generate<S: Sink>(pos: &Position, sink: &mut S) {
        let mut tracked = Tracked { inner: sink, any: false };
        pos.generate_checked::<Self, _>(&mut tracked, false);
        if !tracked.any {
            // Restriction 4: nothing else is legal, so restriction 1 is lifted.
            pos.generate_checked::<Self, S>(sink, true);
        }
    }

    /// Legal by the movement with every restriction, or (restriction 4) a capture only
    /// restriction 1 forbids when nothing else is legal.
    fn is_legal(pos: &Position, m: &Move) -> bool {
        pos.is_legal_by_movement::<Self>(m, false)
            || (pos.is_legal_by_movement::<Self>(m, true) && !pos.any_legal_by_movement::<Self>(false))
    }
}

/// Passes moves on, noting whether there were any.
struct Tracked<'a, S> {
    inner: &'a mut S,
    any: bool,
}

impl<S: Sink> Sink for Tracked<'_, S> {
    fn targets(&mut self, pos: &Position, role: Role, from: Square, targets: Bitboard) {
        self.any |= targets.any();
        self.inner.targets(pos, role, from, targets);
    }

    fn pawn_targets(&mut self, pos: &Position, from: Square, targets: Bitboard) {
        self.any |= targets.any();
        self.inner.pawn_targets(pos, from, targets);
    }

    fn push(&mut self, m: Move) {
        self.any = true;
        self.inner.push(m);
    }
}
