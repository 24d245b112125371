//! FIDE chess: the rules every other variant starts from, so nothing here overrides them.

use super::Rules;
use crate::role::Role;

pub(crate) struct Chess;

impl Rules for Chess {
    const ID: &'static str = "chess";
    const NAME: &'static str = "Chess";
    const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const ROLES: &'static [Role] = &[Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];
    const PROMOTIONS: &'static [Role] = &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight];
}
