//! Werewolf Chess: the Werewolf (a three-step queen that jumps) replaces the queen; it may hop
//! over an enemy piece and take it on the way, and whatever takes a Werewolf, the king
//! aside, becomes one (contagion), so a pawn taking it on the last rank does not promote.

use super::{Capture, Rules};
use crate::movegen::Sink;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::role::Role;
use crate::square::Square;

pub(crate) struct Werewolf;

impl Rules for Werewolf {
    const ID: &'static str = "werewolf";
    const NAME: &'static str = "Werewolf Chess";
    const START_FEN: &'static str = "rnbwkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBWKBNR w KQkq - 0 1";
    const ROLES: &'static [Role] = &[Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::King, Role::Werewolf];
    const PROMOTIONS: &'static [Role] = &[Role::Rook, Role::Bishop, Role::Knight];
    const TRANSFORMED_BY_CAPTURE: Option<Role> = Some(Role::Werewolf);

    fn capture(mover: Role, taken: Role) -> Capture {
        if taken == Role::Werewolf && mover != Role::King {
            Capture::Becomes(Role::Werewolf)
        } else {
            Capture::Plain
        }
    }
}

impl Position {
    /// A Werewolf's hops from `from`: over an adjacent enemy piece (never a royal one), taking
    /// it, to the square beyond when that is not ours. The piece there, if any, is taken too.
    pub(crate) fn werewolf_hops<S: Sink>(&self, sink: &mut S, from: Square, safe: impl Fn(&Move) -> bool) {
        let them = self.board.by_color(!self.turn);
        let ours = self.board.by_color(self.turn);
        let royals = self.board.by_role(self.variant.royal());
        for d in 0..8 {
            let [first, second, _] = *self.geo.steps(from, d);
            let (Some(over), Some(to)) = (first.first(), second.first()) else {
                continue;
            };
            if (first & (them - royals)).any() && !ours.contains(to) {
                let taken = self.board.role_at(over).expect("enemy piece");
                let m = Move {
                    kind: MoveKind::Hop { over, taken },
                    ..Move::new(Role::Werewolf, from, to, self.board.role_at(to))
                };
                if safe(&m) {
                    sink.push(m);
                }
            }
        }
    }
}
